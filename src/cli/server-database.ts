import type { Settings } from '../config/settings.js';
import { invalidInput, type WorkflowState } from '../core/index.js';
import { serverClient } from '../open-baton.js';
import { askWhichRun, type BatonService } from '../service/index.js';
import type { Runtime } from './runtime.js';

/**
 * The workflow `baton run` drives. Without -w, among several conversations' workflows of the worktree it asks which
 * (`askWhichRun`, as `baton resume` does): starting an agent on the one whose conversation was at work last is a guess.
 * It drives on a database itself (the lease, the executors, the event log), never through a server; with a server
 * named (`--server`, BATON_URL), where every other command goes, the workflow is the one that server shows, and it must
 * be in this database too: else this database is not the server's, which is said before any agent starts (never a "no
 * workflow" that `baton list` contradicts, nor another workflow run).
 */
export async function workflowToDrive(
  rt: Runtime,
  service: BatonService,
  settings: Settings,
  server: string | undefined,
  workflow: string | undefined,
): Promise<WorkflowState> {
  const client = serverClient(settings, rt.env, rt.cwd, server);
  if (!client) {
    return (await service.resolveAmong(rt.ref(workflow), askWhichRun)).state;
  }
  try {
    const { workflow: shown } = await client.taken(rt.ref(workflow), { ask: true });
    if (await service.store.loadState(shown.id)) return await service.resolve({ workflowId: shown.id });
    throw invalidInput(
      `${shown.id} is on the server ${client.base}, but not in the database \`baton run\` opens (${service.store.location}): \`baton run\` drives its agent on a database itself, not through the server. Run it with the server's database (\`--database\` or BATON_DATABASE_URL; \`baton serve\` prints it as \`store\` when it starts), or on the server's machine with its BATON_HOME`,
    );
  } finally {
    await client.close();
  }
}

/**
 * A worker takes work from the queue of the database it opens, never through a server. With a server named, work
 * queued there that this database does not hold means it is not the server's: refused before the worker starts (it
 * would sit idle on another queue). With nothing queued there it cannot tell, and the note returned says where it
 * takes work from; null when no server is named or the queues agree.
 */
export async function workerQueueNote(
  rt: Runtime,
  service: BatonService,
  settings: Settings,
  server: string | undefined,
): Promise<string | null> {
  const client = serverClient(settings, rt.env, rt.cwd, server);
  if (!client) return null;
  const own = `\`baton worker\` takes work from the database it opens (${service.store.location}), not through the server`;
  try {
    // a server that does not answer cannot tell: the worker needs none, so it starts, saying so
    const listed = await client.queue().catch((e: Error) => e);
    if (listed instanceof Error)
      return `note: ${own} ${client.base}, which did not answer (${listed.message})`;
    const { entries } = listed;
    const missing: string[] = [];
    for (const e of entries) if (!(await service.store.loadState(e.workflow_id))) missing.push(e.workflow_id);
    if (missing.length)
      throw invalidInput(
        `the server ${client.base} queues ${missing.join(', ')}, which are not in the database this worker opens: ${own}. Run it with the server's database (\`--database\` or BATON_DATABASE_URL; \`baton serve\` prints it as \`store\` when it starts), or run \`baton serve --worker\` where the server runs`,
      );
    return entries.length
      ? null
      : `note: ${own} ${client.base}: work submitted there reaches this worker only if this is the server's database`;
  } finally {
    await client.close();
  }
}
