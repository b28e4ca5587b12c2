import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatonClient } from '../client/baton-client.js';
import { databaseName, storeName, type StoreInUse } from '../config/store-in-use.js';
import {
  BatonError,
  counted,
  errorLine,
  isTerminal,
  type WorkflowState,
  type WorkflowStatus,
} from '../core/index.js';
import { isPostgresUrl, redactUrl } from '../core/database-url.js';
import { exportRun, importRunDir, skippedAnything, type ImportResult } from '../disk/index.js';
import { openStore } from '../storage/open-store.js';
import type { Store } from '../storage/store.js';

/** A workflow not finished that a store holds for a worktree of this repository. */
export interface WorkflowLeft {
  id: string;
  title: string;
  status: WorkflowStatus;
  worktree: string;
  /** Its last event's position there. */
  version: number;
}

const leftOf = (w: WorkflowState): WorkflowLeft => ({
  id: w.id,
  title: w.title,
  status: w.status,
  worktree: w.worktree,
  version: w.version,
});

/** How long a PostgreSQL that does not answer is waited for when only asked what it holds. */
const ASK_WITHIN_MS = 3000;

/**
 * Opens the store a database setting names for a look or a move; null for a SQLite file that does not exist
 * (opening it would create an empty one: it holds nothing to move).
 */
async function openOld(database: string): Promise<Store | null> {
  if (!isPostgresUrl(database) && !existsSync(database)) return null;
  return openStore({ database, answerWithinMs: ASK_WITHIN_MS });
}

/** What a switch of store leaves behind: the workflows, or why the old store could not be read (not "none"). */
export type LeftBehind = { left: WorkflowLeft[]; unread: null } | { left: []; unread: string };

/**
 * The workflows not finished that the store `database` names holds for these worktrees and `now` (the store in use)
 * lacks, or holds an older part of: what a switch to `now` leaves behind (the hooks then start a new, empty workflow
 * there). A store that cannot be read says why: it may hold some.
 */
export async function workflowsLeftIn(
  database: string,
  worktrees: readonly string[],
  now: () => Promise<Store>,
): Promise<LeftBehind> {
  const found: WorkflowLeft[] = [];
  try {
    const store = await openOld(database);
    if (!store) return { left: [], unread: null };
    try {
      for (const worktree of worktrees)
        for (const w of await store.listWorkflows({ worktree }))
          if (!isTerminal(w.status)) found.push(leftOf(w));
    } finally {
      await store.close();
    }
  } catch (e) {
    return { left: [], unread: firstLine(e) };
  }
  const to = await now();
  const left: WorkflowLeft[] = [];
  for (const w of found) if (((await to.loadState(w.id))?.version ?? 0) < w.version) left.push(w);
  return { left, unread: null };
}

/**
 * Why a store could not be read, in a few words: its error's first line; a SQLite file's named cause (damaged, locked,
 * denied) as the driver said it, since the hint beside it (move it aside: the next command starts a new one) is for the
 * store in use, not the one left.
 */
function firstLine(e: unknown): string {
  const named = (e as { details?: { cause?: unknown } }).details?.cause ? (e as Error).cause : null;
  return errorLine(named instanceof Error ? named : e);
}

/**
 * Which of `ids` the store `database` names holds (a SQLite file missing: none), or why it could not be read: an
 * unreadable store may hold them, which is not "none".
 */
async function heldIn(
  database: string,
  ids: readonly string[],
): Promise<{ found: WorkflowLeft[]; unread: string | null }> {
  try {
    const store = await openOld(database);
    if (!store) return { found: [], unread: null };
    try {
      const found: WorkflowLeft[] = [];
      for (const id of ids) {
        const w = await store.loadState(id);
        if (w) found.push(leftOf(w));
      }
      return { found, unread: null };
    } finally {
      await store.close();
    }
  } catch (e) {
    return { found: [], unread: firstLine(e) };
  }
}

/**
 * Copies each workflow from the store `database` names into `to`, as `baton export` then `baton import-run` do (the
 * same run folder in between, in a temporary folder deleted after). The old store keeps its copy as it was; one that
 * fails stops the move, said with what was moved before it (`stopped` says what that leaves for the user).
 */
export async function moveWorkflows(
  database: string,
  to: Store,
  ids: readonly string[],
  stopped: string,
): Promise<ImportResult[]> {
  const moved: ImportResult[] = [];
  let id: string | undefined;
  try {
    const from = await openOld(database);
    if (!from) return [];
    try {
      for (id of ids) {
        const dir = mkdtempSync(join(tmpdir(), 'baton-move-'));
        try {
          await exportRun(from, id, dir);
          moved.push(await importRunDir(to, dir));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    } finally {
      await from.close();
    }
  } catch (e) {
    const before = moved.length
      ? ` (${moved.map((r) => r.workflow_id).join(', ')}, moved before it, ${moved.length === 1 ? 'is' : 'are'} in the new store too, whole: a run again leaves ${moved.length === 1 ? 'it' : 'them'} as ${moved.length === 1 ? 'it is' : 'they are'})`
      : '';
    throw new BatonError(
      BatonError.isInstance(e) ? e.code : 'unavailable',
      `--move-workflows could not move ${id ?? 'the workflows'} from ${databaseName(database)} (${errorLine(e)})${before}; ${stopped}`,
      {},
      { cause: e },
    );
  }
  return moved;
}

/**
 * What `init --save-database --move-workflows` says when the store the hooks leave cannot be read: nothing moved, and
 * (`saving`) nothing kept, so the hooks stay where the workflows are; how to go on.
 */
export function unreadRefusal(previous: string, why: string, saving: boolean, stopped: string): BatonError {
  return new BatonError(
    'unavailable',
    `--move-workflows cannot read ${databaseName(previous)}, the store the hooks ${saving ? 'use' : 'used until now'} (${why}): it moved nothing; ${stopped}`,
  );
}

/** What a move that stopped leaves: nothing lost, and (`saving`) nothing kept, so the hooks stay on the old store. */
export function moveStopped(previous: string, saving: boolean): string {
  const old = databaseName(previous);
  return saving
    ? `--save-database kept nothing, so the hooks still use ${old} and every workflow there stays as it was. Run this again once the cause above is cleared; or switch without moving them: \`baton init --save-database\` (it says how to move them later)`
    : `every workflow there stays as it was. Run this again once the cause above is cleared`;
}

/**
 * What `init --save-database` says when the store the hooks leave (`previous`) could not be read: its workflows not
 * finished for this repository, if any, stay there, and how to move them once it reads again (or from the run
 * folders, which hold them too).
 */
export function unreadLines(
  previous: string,
  why: string,
  store: StoreInUse,
  home: string,
  runs: { worktree: string; dir: string } | null,
): string[] {
  const old = databaseName(previous);
  const from = isPostgresUrl(previous) ? `'${redactUrl(previous)}'` : shellWord(previous);
  const again =
    previous === join(home, 'baton.db')
      ? `\`baton init --save-database --move-workflows\` (with this shell's database setting) moves them, or one by one: `
      : '';
  const folders = runs
    ? `; or, from this worktree's run folders (${runs.dir}), which hold them too: \`baton rebuild --from-disk ${shellWord(runs.worktree)}\``
    : '';
  return [
    `Warning: ${old}, the store the hooks used until now, could not be read (${why}), so what it holds was not looked at: any workflow of this repository not finished there stays there, and the next agent session start here begins a new, empty workflow in ${storeName(store)} instead of handing it over. Once it can be read, ${again}\`baton --database ${from} list\` names them and ${moveCommands(previous, '<id>', home)} moves one${folders}.`,
  ];
}

/** A word of a shell command, quoted when the shell would split or expand it. */
const shellWord = (s: string) => (/^[\w@%+=:,./~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The commands that move one workflow from the store `database` names into the one in use: `baton export` into a
 * folder of Baton's home, then `baton import-run`. A PostgreSQL URL is shown without its password (the user types it).
 */
function moveCommands(database: string, id: string, home: string): string {
  const dir = shellWord(join(home, 'moved', id));
  const from = isPostgresUrl(database) ? `'${redactUrl(database)}'` : shellWord(database);
  return `\`baton --database ${from} export ${id} ${dir} && baton import-run ${dir}\``;
}

/** The workflows in words: `wf-1 ("Add greet", in_progress)`, each with the commands that move it. */
function leftBehindText(database: string, left: readonly WorkflowLeft[], home: string): string {
  return left
    .map((w) => `${w.id} ("${w.title}", ${w.status}): ${moveCommands(database, w.id, home)}`)
    .join('; ');
}

/**
 * What `init --save-database` says of the workflows not finished that the store the hooks leave (`previous`) holds
 * for this repository: moved (`--move-workflows`), or the commands that move them.
 */
export function switchLines(
  previous: string,
  store: StoreInUse,
  left: readonly WorkflowLeft[],
  moved: readonly ImportResult[],
  home: string,
): string[] {
  const old = databaseName(previous);
  const now = storeName(store);
  if (moved.length)
    return [
      `Moved ${counted(moved.length, 'workflow')} not finished of this repository from ${old} into ${now}: ${moved.map((r) => `${r.workflow_id} (${r.outcome}, ${counted(r.events, 'event')})`).join(', ')}; the next agent session start in its worktree takes it up where it stopped. The copy in ${old} stays as it was.`,
      ...moved
        .filter(skippedAnything)
        .map(
          (r) =>
            `Warning: ${r.workflow_id} was not moved whole (${r.reason ?? 'some of its event lines could not be read'}); \`baton status -w ${r.workflow_id}\` shows what ${now} holds of it.`,
        ),
    ];
  if (!left.length) return [];
  const it = left.length === 1 ? 'it' : 'them';
  // run again, the command finds the default SQLite file the hooks used (not another store the config named before)
  const again =
    previous === join(home, 'baton.db')
      ? `\`baton init --save-database --move-workflows\` (with this shell's database setting) moves ${it}; or one by one: `
      : '';
  return [
    `Warning: ${left.length === 1 ? 'a workflow' : `${left.length} workflows`} not finished of this repository ${left.length === 1 ? 'stays' : 'stay'} in ${old}, which the hooks no longer use: the next agent session start here begins a new, empty workflow in ${now} instead of handing ${it} over. Move ${it} first: ${again}${leftBehindText(previous, left, home)}.`,
  ];
}

/**
 * Of the workflows the hooks here followed (`ids`), those the store in use does not hold, each with doctor's note:
 * where it is (the default SQLite file, when the store in use is another one and holds it), what the next session
 * start does, and the commands that move it. A finished one found there is history, not said.
 */
export async function followedElsewhere(
  client: BatonClient,
  ids: readonly string[],
  store: StoreInUse,
  home: string,
  root: string,
  runsDir: string,
  autoStarts: boolean,
  open: readonly string[],
): Promise<{ workflow: WorkflowLeft | { id: string }; note: string }[]> {
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const held = await client.status({ workflowId: id, cwd: root }).then(
      () => true,
      (e: unknown) => !(BatonError.isInstance(e) && e.code === 'not_found'),
    );
    if (!held) missing.push(id);
  }
  if (!missing.length) return [];
  const sqlite = join(home, 'baton.db');
  const there =
    store.kind === 'sqlite' && store.place === sqlite
      ? { found: [], unread: null }
      : await heldIn(sqlite, missing);
  const now = storeName(store);
  // what the sessions here do instead: follow another workflow, open in the store in use, or begin a new one
  const next = (it: string) =>
    open.length
      ? `the sessions here follow ${open.join(', ')} instead`
      : autoStarts
        ? `the next agent session start here begins a new, empty workflow instead of handing ${it} over`
        : `no session here is handed ${it} over`;
  return missing.flatMap((id) => {
    const w = there.found.find((t) => t.id === id);
    if (w && isTerminal(w.status)) return [];
    if (w)
      return [
        {
          workflow: w,
          note: `the hooks here followed workflow ${w.id} ("${w.title}", ${w.status}), which stays in ${databaseName(sqlite)}: ${now}, the store in use, does not hold it, so ${next('it')}. Move it: ${moveCommands(sqlite, w.id, home)} (or end it there: \`baton --database ${sqlite} abandon ${w.id}\`)`,
        },
      ];
    const folder = join(runsDir, id);
    const fromFolder = existsSync(folder) ? `\`baton import-run ${folder}\` (its run folder here), or ` : '';
    // the default file could not be read: it may well hold it, so it is not said to be in a store no longer named
    if (there.unread)
      return [
        {
          workflow: { id },
          note: `the hooks here followed workflow ${id}, which ${now}, the store in use, does not hold, so ${next('it')}; ${databaseName(sqlite)}, the default store, where it may be, could not be read (${there.unread}). Once it can be read, move it from there: ${moveCommands(sqlite, id, home)}${existsSync(folder) ? `; or now, from its run folder here: \`baton import-run ${folder}\`` : ''}`,
        },
      ];
    // not in the default file: in a store this machine no longer names; its run folder here holds it too
    return [
      {
        workflow: { id },
        note: `the hooks here followed workflow ${id}, which ${now}, the store in use, does not hold (it is in the store the hooks used before), so ${next('it')}. Move it: ${fromFolder}${moveCommands('<the database it is in>', id, home)}`,
      },
    ];
  });
}
