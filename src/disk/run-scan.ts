import { counted, isTerminal, progressLabel, taskCounts, workflowPhase } from '../core/index.js';
import { listRunDirs } from './run-import.js';
import { readRun, type MissingArtifact, type ReadProblem, type RunRead } from './run-reader.js';

export interface RunSummary {
  workflow_id: string;
  dir: string;
  title: string | null;
  status: string | null;
  phase: string | null;
  step: string | null;
  last_activity: string | null;
  events: number;
  incomplete: boolean;
  stale: boolean;
  flagged: boolean;
  /** The log lost events: `rebuild --from-disk` rebuilds the run from `source`, the `lost` seqs missing. */
  recovered_with_gaps: RunRead['recovered_with_gaps'];
  problems: ReadProblem[];
  missing: MissingArtifact[];
}

export interface RunScan {
  runs_dir: string;
  runs: RunSummary[];
  incomplete: string[];
  warnings: string[];
}

/**
 * The Resume Protocol's "locate active runs": reads every run folder from disk alone and says which are
 * incomplete, which are stale, which are damaged, and when the user must choose between several.
 */
export function scanRuns(runsDir: string, opts: { staleAfterMs: number; now: string }): RunScan {
  const runs: RunSummary[] = listRunDirs(runsDir).map((dir) => {
    const r = readRun(dir);
    const s = r.state;
    const c = s ? taskCounts(s.tasks) : null;
    const age = s ? Date.parse(opts.now) - Date.parse(s.updated_at) : 0;
    return {
      workflow_id: r.workflow_id,
      dir,
      title: s?.title ?? null,
      status: s?.status ?? null,
      phase: s ? workflowPhase(s) : null,
      step: c ? progressLabel(c, '') : null,
      last_activity: s?.updated_at ?? null,
      events: r.events.length,
      incomplete: s ? !isTerminal(s.status) : false,
      stale: s ? !isTerminal(s.status) && age >= opts.staleAfterMs : false,
      flagged: r.flagged,
      recovered_with_gaps: r.recovered_with_gaps,
      problems: r.problems,
      missing: r.missing,
    };
  });
  const warnings: string[] = [];
  for (const r of runs) {
    if (r.stale) {
      const days = Math.floor((Date.parse(opts.now) - Date.parse(r.last_activity ?? opts.now)) / 86_400_000);
      warnings.push(
        `run ${r.workflow_id} was last active ${counted(days, 'day')} ago (${r.last_activity}): review its plan and the worktree before resuming`,
      );
    }
    for (const p of r.problems)
      warnings.push(`run ${r.workflow_id}: ${p.file}${p.line !== null ? `:${p.line}` : ''}: ${p.problem}`);
    for (const m of r.missing)
      warnings.push(`run ${r.workflow_id}: ${m.file} is missing (produced by ${m.produced_by})`);
  }
  const incomplete = runs.filter((r) => r.incomplete).map((r) => r.workflow_id);
  if (incomplete.length > 1)
    warnings.push(`${incomplete.length} incomplete runs: choose one with -w <id> (${incomplete.join(', ')})`);
  return { runs_dir: runsDir, runs, incomplete, warnings };
}
