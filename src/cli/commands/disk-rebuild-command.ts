import { resolve } from 'node:path';
import type { BatonClient } from '../../client/baton-client.js';
import { BatonError } from '../../core/index.js';
import { rebuildFromDisk, runsDirFor, type ImportResult } from '../../disk/index.js';
import { describeRanges } from '../../disk/run-recovery.js';
import { resolveWorktree } from '../../git/git.js';
import { localService } from '../local-service.js';
import type { GlobalOptions, Runtime } from '../runtime.js';

const where = (p: { file: string; line: number | null }) => `${p.file}${p.line !== null ? `:${p.line}` : ''}`;

function describeRun(x: ImportResult): string {
  const gaps = x.recovered_with_gaps;
  return (
    `  ${x.workflow_id}: ${x.outcome}, ${x.events} event(s)${x.reason ? ` (${x.reason})` : ''}` +
    (gaps
      ? `\n    recovered with gaps: event(s) ${describeRanges(gaps.lost)} lost; rebuilt from ${gaps.source} (seq ${gaps.base})`
      : '') +
    [
      ...x.problems.map((p) => `\n    warning: ${where(p)}: ${p.problem}`),
      ...x.missing.map((m) => `\n    warning: ${m.file} is missing (produced by ${m.produced_by})`),
    ].join('')
  );
}

/**
 * `baton rebuild --from-disk <worktree>`: the database rows of every run folder found there. Exits 1 when anything
 * was skipped (a run, lost events, unreadable lines), naming it; with --json the whole report is the error's details.
 */
export async function rebuildFromDiskCommand(
  rt: Runtime,
  client: BatonClient,
  g: GlobalOptions,
  worktree: string,
  print: (value: unknown, human: () => string) => void,
): Promise<void> {
  const service = localService(client);
  const settings = rt.settings(g);
  const wt = await resolveWorktree(resolve(rt.cwd, worktree));
  const r = await rebuildFromDisk(service.store, runsDirFor(wt, settings.runsDir));
  const human = () =>
    [
      `rebuilt from ${r.runs_dir}:`,
      ...r.runs.map(describeRun),
      ...(r.runs.length ? [] : ['  no run folders found']),
    ].join('\n');
  if (!r.skipped.length) return print(r, human);
  if (g.json !== true) print(r, human);
  const what = r.runs
    .filter((x) => r.skipped.includes(x.workflow_id))
    .map((x) =>
      x.outcome === 'skipped'
        ? `${x.workflow_id} (skipped: ${x.reason})`
        : x.recovered_with_gaps
          ? `${x.workflow_id} (recovered with gaps: event(s) ${describeRanges(x.recovered_with_gaps.lost)} lost)`
          : x.stranded
            ? `${x.workflow_id} (${x.stranded} event(s) after a gap not used)`
            : `${x.workflow_id} (${x.problems.length} unreadable line(s) or file(s) skipped)`,
    );
  throw new BatonError(
    'unavailable',
    `rebuild from disk skipped something in ${r.skipped.length} run(s): ${what.join('; ')}`,
    { ...r },
  );
}
