import { dirname, join, resolve } from 'node:path';
import { invalidInput, type BatonEvent } from '../core/index.js';

/** Where run folders go by default, relative to the workflow's worktree. */
export const DEFAULT_RUNS_DIR = '.baton/runs';

/** The runs folder of a worktree: the setting (absolute, or relative to the worktree) or `<worktree>/.baton/runs`. */
export const runsDirFor = (worktree: string, setting?: string | null): string =>
  resolve(worktree, setting || DEFAULT_RUNS_DIR);

/** The registry (`sessions.json`) sits beside the runs folder: `<worktree>/.baton/sessions.json` by default. */
export const registryPath = (runsDir: string): string => join(dirname(runsDir), 'sessions.json');

/** A workflow id as a folder name: refused if it could step outside the runs folder. */
export function runFolderName(workflowId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(workflowId))
    throw invalidInput(`workflow id "${workflowId}" cannot name a run folder`);
  return workflowId;
}

/** An actor (`user`, `orchestrator`, `session-3`, `executor-<id>`) as a folder name. */
export const actorFolder = (actor: string): string =>
  actor.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || 'unknown';

const dayOf = (at: string) => (/^\d{4}-\d{2}-\d{2}/.test(at) ? at.slice(0, 10) : 'undated');

/** The files of one run folder. */
export function runPaths(runDir: string) {
  return {
    dir: runDir,
    events: join(runDir, 'events'),
    manifest: join(runDir, 'manifest.json'),
    workflowState: join(runDir, 'workflow-state.json'),
    taskGraph: join(runDir, 'task-graph.json'),
    plan: join(runDir, 'plan.md'),
    liveState: join(runDir, 'state.json'),
    recovery: join(runDir, 'recovery.json'),
    checkpoints: join(runDir, 'checkpoints'),
    snapshots: join(runDir, 'snapshots'),
    checkpoint: (name: string) => join(runDir, 'checkpoints', `${name}.json`),
    snapshot: (sessionNumber: number) => join(runDir, 'snapshots', `${sessionNumber}.json`),
    /** `events/<actor>/<date>.jsonl`: the day is the event's own UTC date. */
    eventFile: (e: Pick<BatonEvent, 'actor' | 'at'>) =>
      join(runDir, 'events', actorFolder(e.actor), `${dayOf(e.at)}.jsonl`),
  };
}
export type RunPaths = ReturnType<typeof runPaths>;
