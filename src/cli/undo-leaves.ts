import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BatonClient } from '../client/baton-client.js';
import { homeConfigPath, readConfigFile } from '../config/config-files.js';
import { databaseName, storeName, type StoreInUse } from '../config/store-in-use.js';
import { isTerminal } from '../core/index.js';
import { agentLabel } from '../core/agent-label.js';
import { listRunDirs, runsDirFor } from '../disk/index.js';
import type { FollowingHook } from '../integrations/init/following-hooks.js';

/** What `baton init --undo` leaves as it was, for the user to keep or remove: none of it is a file init wrote. */
export interface UndoLeaves {
  /** Each worktree's run folders (`.baton/runs`): the workflows' history, written as they went. */
  run_folders: { dir: string; runs: number }[];
  /** The `database` key of $BATON_HOME/config.json (`baton init --save-database`): every Baton command still uses it. */
  database_key: { file: string; store: string; otherwise: string } | null;
  /**
   * The workflows not finished in the store in use, of these worktrees, each with the hooks of Baton's that still
   * follow its worktree's sessions (another scope's, the plugin): none, and no session is followed into it now.
   */
  workflows: { id: string; title: string; status: string; worktree: string; followed_by: StillFollowing[] }[];
  /** Why the workflows could not be listed (the store down), or null. */
  workflows_unknown: string | null;
}

/** Baton's hooks an undo left wired in a worktree: a file of another scope than the one undone, or the plugin. */
type StillFollowing = FollowingHook;

/**
 * What an undo leaves in these worktrees and Baton's home: the run folders, the saved database, the workflows in
 * progress in the store in use (not opened when it is a SQLite file that is not there: it holds none).
 */
export async function undoLeaves(
  worktrees: readonly string[],
  runsSetting: string | null,
  home: string,
  store: StoreInUse,
  open: () => Promise<BatonClient>,
  following: (worktree: string) => StillFollowing[],
): Promise<UndoLeaves> {
  const run_folders = worktrees.flatMap((w) => {
    const dir = runsDirFor(w, runsSetting);
    return existsSync(dir) ? [{ dir, runs: listRunDirs(dir).length }] : [];
  });
  const config = homeConfigPath(home);
  const saved = existsSync(config) ? readConfigFile(config).values.database : undefined;
  const database_key =
    typeof saved === 'string'
      ? { file: config, store: databaseName(saved), otherwise: join(home, 'baton.db') }
      : null;
  let workflows: UndoLeaves['workflows'] = [];
  let workflows_unknown: string | null = null;
  if (store.kind !== 'sqlite' || existsSync(store.place))
    try {
      const client = await open();
      for (const worktree of worktrees)
        for (const w of await client.list({ worktree }))
          if (!isTerminal(w.status))
            workflows.push({
              id: w.id,
              title: w.title,
              status: w.status,
              worktree: w.worktree,
              followed_by: following(w.worktree),
            });
    } catch (e) {
      workflows = [];
      workflows_unknown = (e as Error).message.split('\n')[0] ?? String(e);
    }
  return { run_folders, database_key, workflows, workflows_unknown };
}

/** The lines `baton init --undo` ends with: what it left, and how to remove each if that is what the user wants. */
export function undoLeavesLines(l: UndoLeaves, store: StoreInUse, shown: (path: string) => string): string[] {
  const out: string[] = [];
  for (const f of l.run_folders)
    out.push(
      `  ${shown(f.dir)}: ${f.runs === 1 ? 'the run folder of 1 workflow (its history' : `the run folders of ${f.runs} workflows (their history`}, written as it went): delete the folder if you want it gone`,
    );
  if (l.database_key)
    out.push(
      `  the \`database\` key of ${shown(l.database_key.file)} (${l.database_key.store}): every Baton command of this user still uses it; take the key out to go back to ${shown(l.database_key.otherwise)}`,
    );
  const listed = (ws: UndoLeaves['workflows'], which: string) =>
    `${ws.length === 1 ? '1 workflow' : `${ws.length} workflows`} not finished in ${storeName(store)}, which ${which}: ${ws.map((w) => `${w.id} ("${w.title}", ${w.status})`).join(', ')}`;
  const unfollowed = l.workflows.filter((w) => !w.followed_by.length);
  if (unfollowed.length)
    out.push(
      `  ${listed(unfollowed, 'no session here is followed into now')}; \`baton abandon <id>\` ends one, \`baton init\` follows the sessions here again`,
    );
  // an undo of one scope leaves the others' hooks (a plain `baton init` and --user, the plugin): the sessions here are
  // still followed into these, which is not to be read as Baton gone
  const followed = l.workflows.filter((w) => w.followed_by.length);
  if (followed.length) {
    const by = [
      ...new Set(
        followed.flatMap((w) =>
          w.followed_by.map((f) =>
            f.plugin
              ? `${agentLabel(f.agent)}'s plugin (enabled in ${shown(f.path)})`
              : `${agentLabel(f.agent)}'s hooks in ${shown(f.path)}`,
          ),
        ),
      ),
    ];
    out.push(
      `  ${listed(followed, `the sessions here still go on in, as Baton's hooks are still wired there (${by.join(', ')}; \`baton doctor\` lists them)`)}; \`baton abandon <id>\` ends one`,
    );
  }
  if (l.workflows_unknown)
    out.push(`  the workflows in ${storeName(store)}, which could not be listed: ${l.workflows_unknown}`);
  return out.length ? ['Left as they were (nothing `baton init` wrote):', ...out] : [];
}
