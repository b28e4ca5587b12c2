import { conflict } from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import { describeOwner, leaseVerdict, type Lease, type ProcessPorts } from './ownership.js';

/** What `baton run` does when another workflow of its worktree has a live driver: refuse (the default), or warn. */
export type SharedWorktree = 'refuse' | 'warn';

/**
 * The live drivers, on this host, of the other workflows of a worktree: their agents edit the files this driver's
 * agent would. A driver on another host is left out: the same path there is another checkout, as far as Baton can
 * tell.
 */
export async function worktreePeers(
  svc: BatonService,
  workflowId: string,
  worktree: string,
  ports: ProcessPorts,
): Promise<Lease[]> {
  const registry = svc.store.leases;
  if (!registry) return [];
  const live = (await registry.list()).filter(
    (l) =>
      l.workflow_id !== workflowId &&
      // a command handling a crash holds a lease for a moment, and runs no agent
      l.kind !== 'recovery' &&
      l.host === ports.hostname &&
      leaseVerdict(l, ports) === 'live',
  );
  const peers: Lease[] = [];
  for (const l of live) if ((await svc.store.loadState(l.workflow_id))?.worktree === worktree) peers.push(l);
  return peers;
}

/** "`baton run --agent claude-code` (pid 4242 on laptop, ...) drives workflow wf-1a2b in this worktree". */
const drives = (l: Lease) => `${describeOwner(l)} drives workflow ${l.workflow_id} in this worktree`;

/**
 * Another workflow of the worktree is driven already: refused (exit 3) with what to do, or, when the person allowed
 * it (`--share-worktree`), the line that warns of it.
 */
export function sharedWorktreeCheck(
  peers: Lease[],
  mode: SharedWorktree,
  retry: string,
): { warning: string | null } {
  if (peers.length === 0) return { warning: null };
  const who = peers.map(drives).join('; ');
  if (mode === 'warn')
    return { warning: `warning: ${who}: both agents will edit the same files (--share-worktree)` };
  throw conflict(
    `${who}: both agents would edit the same files. Wait for ${peers.length > 1 ? 'them' : 'it'} to end, or give this workflow a worktree of its own (\`git worktree add\`); to run it here anyway: \`${retry} --share-worktree\``,
    {
      // the workflows driven in this worktree now, and by whom
      shared_with: peers.map((l) => ({
        workflow_id: l.workflow_id,
        owner: l.owner,
        host: l.host,
        pid: l.pid,
        command: l.command,
      })),
    },
  );
}
