import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { foldEvents, invalidInput, notFound } from '../core/index.js';
import type { Store } from '../storage/store.js';
import { DiskMirror, type MirrorOptions } from './disk-mirror.js';
import { readRun, type MissingArtifact, type ReadProblem, type RunRead } from './run-reader.js';

export interface ImportResult {
  workflow_id: string;
  dir: string;
  /**
   * imported: new in the database; appended: the database had an older part; up_to_date; skipped: unusable.
   * `recovered_with_gaps` says when the log had lost events and the run was rebuilt from a checkpoint or snapshot.
   */
  outcome: 'imported' | 'appended' | 'up_to_date' | 'skipped';
  events: number;
  reason: string | null;
  recovered_with_gaps: RunRead['recovered_with_gaps'];
  /** Events read from the folder but not imported (after a hole no checkpoint or snapshot bridges). */
  stranded: number;
  problems: ReadProblem[];
  missing: MissingArtifact[];
}

/** Whether an import left anything behind: a run skipped, events lost or not used, or lines that were skipped. */
export const skippedAnything = (r: ImportResult): boolean =>
  r.outcome === 'skipped' || r.recovered_with_gaps !== null || r.stranded > 0 || r.problems.length > 0;

/**
 * Puts one run's events into the database: the whole log for a new workflow, the missing tail for one the
 * database knows in part. The rows are what the events fold to (`foldEvents`), committed like any command. A run
 * whose log lost events goes in as read (`readRun`): a `workflow.restored` event, then the events after it.
 */
export async function importRun(store: Store, run: RunRead): Promise<ImportResult> {
  const base = {
    workflow_id: run.workflow_id,
    dir: run.dir,
    recovered_with_gaps: run.recovered_with_gaps,
    stranded: run.stranded,
    problems: run.problems,
    missing: run.missing,
  };
  const first = run.events[0];
  const last = run.events[run.events.length - 1];
  if (!run.state || !first || !last)
    return {
      ...base,
      outcome: 'skipped',
      events: 0,
      reason:
        "no readable workflow.created event, and no intact checkpoint or snapshot with the run's workflow-state.json, task-graph.json and plan.md to rebuild it from",
    };
  const existing = await store.loadState(run.workflow_id);
  if (!existing) {
    const { state, writes } = foldEvents(run.events);
    await store.commit({
      workflowId: run.workflow_id,
      expectedVersion: 0,
      events: run.events,
      state,
      writes,
    });
    return { ...base, outcome: 'imported', events: run.events.length, reason: null };
  }
  if (existing.version >= last.seq)
    return {
      ...base,
      outcome: 'up_to_date',
      events: 0,
      reason: `the database already holds events up to ${existing.version}`,
    };
  const tail = run.events.filter((e) => e.seq > existing.version);
  if (tail[0]?.seq !== existing.version + 1)
    return {
      ...base,
      outcome: 'skipped',
      events: 0,
      reason: `the database holds events up to ${existing.version} and the folder cannot continue from there (its readable log resumes at ${tail[0]?.seq}); rebuild into an empty database to recover the run with gaps`,
    };
  const { state, writes } = foldEvents(tail, existing);
  await store.commit({
    workflowId: run.workflow_id,
    expectedVersion: existing.version,
    events: tail,
    state,
    writes,
  });
  return { ...base, outcome: 'appended', events: tail.length, reason: null };
}

/** The run folders directly under a runs folder. */
export function listRunDirs(runsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(runsDir).sort();
  } catch {
    throw notFound(
      `no run folder at ${runsDir}; pass the worktree whose .baton/runs holds the runs (or set --runs-dir)`,
    );
  }
  return names
    .filter((n) => !n.startsWith('.'))
    .map((n) => join(runsDir, n))
    .filter((d) => {
      try {
        return statSync(d).isDirectory();
      } catch {
        return false;
      }
    });
}

/** `baton rebuild --from-disk`: recreates the database rows of every run found in a runs folder. */
export async function rebuildFromDisk(store: Store, runsDir: string) {
  const runs: ImportResult[] = [];
  for (const dir of listRunDirs(runsDir)) runs.push(await importRun(store, readRun(dir)));
  return { runs_dir: runsDir, runs, skipped: runs.filter(skippedAnything).map((r) => r.workflow_id) };
}

/**
 * `baton export <id> <dir>`: writes a workflow's complete run folder into a new (or empty) folder; `options` as the
 * mirror's (its `recoveryPlan`: the recovery.json `baton recover` would say).
 */
export async function exportRun(store: Store, workflowId: string, dir: string, options: MirrorOptions = {}) {
  const state = await store.loadState(workflowId);
  if (!state)
    throw notFound(`no workflow ${workflowId}; list them with \`baton list\``, { workflow_id: workflowId });
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    // a new folder
  }
  if (entries.length) throw invalidInput(`${dir} is not empty; export into a new or empty folder`);
  const events = await store.readEvents(workflowId);
  await new DiskMirror(store, options).write(dir, state, events);
  return { workflow_id: workflowId, dir, events: events.length };
}

/** `baton import-run <dir>`: reads one run folder (tolerantly) and imports it. */
export async function importRunDir(store: Store, dir: string, workflowId?: string) {
  let run = readRun(dir, workflowId);
  // A folder renamed and without a readable manifest: let the events say whose run it is.
  if (!run.recovered.length && workflowId === undefined) run = readRun(dir, null);
  if (!run.events.length && !run.state)
    throw invalidInput(
      `${dir} holds no readable run (${[...run.problems.map((p) => p.problem), ...run.missing.map((m) => `missing ${m.file}`)].join('; ') || 'empty'})`,
    );
  return importRun(store, run);
}
