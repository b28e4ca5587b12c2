import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import {
  formatAgo,
  progressLabel,
  progressPercent,
  refusalText,
  type taskCounts,
  type CheckpointRef,
  type RecoveryPlan,
} from '../../core/index.js';
import {
  exportRun,
  importRunDir,
  readJsonFile,
  runFolderName,
  runPaths,
  runsDirFor,
  scanRuns,
} from '../../disk/index.js';
import { resolveWorktree } from '../../git/git.js';
import { action, workflowOption } from '../action.js';
import { localService } from '../local-service.js';
import { table } from '../output.js';
import type { Runtime } from '../runtime.js';
import { takenRef } from '../taken-workflow.js';

type StatusView = {
  workflow: {
    id: string;
    title: string;
    status: string;
    worktree: string;
    session_count: number;
    updated_at: string;
  };
  counts: { tasks: ReturnType<typeof taskCounts>; checkpoints?: number };
  checkpoints: CheckpointRef[];
  live_state: { saved_at: string; trigger: string } | null;
};

export function registerDiskCommands(program: Command, rt: Runtime) {
  program
    .command('export <id> <dir>')
    .description(
      'write a workflow as a run folder into a new or empty folder (to move it to another machine or database)',
    )
    .action(
      action(rt, async ({ client, print }, id: string, dir: string) => {
        const service = localService(client);
        const r = await exportRun(service.store, id, resolve(rt.cwd, dir), {
          recoveryPlan: (s) => service.recoveryPlan(s),
        });
        print(r, () => `exported ${r.workflow_id} (${r.events} events) to ${r.dir}`);
      }),
    );

  program
    .command('import-run <dir>')
    .description('import a run folder (from `baton export` or a .baton/runs/<id> folder) into the database')
    .action(
      action(rt, async ({ client, print }, dir: string) => {
        const service = localService(client);
        const r = await importRunDir(service.store, resolve(rt.cwd, dir));
        print(r, () =>
          [
            `${r.outcome} ${r.workflow_id}: ${r.events} event(s)${r.reason ? ` (${r.reason})` : ''}`,
            ...r.problems.map(
              (p) => `warning: ${p.file}${p.line !== null ? `:${p.line}` : ''}: ${p.problem}`,
            ),
            ...r.missing.map((m) => `warning: ${m.file} is missing (produced by ${m.produced_by})`),
          ].join('\n'),
        );
      }),
    );

  program
    .command('runs [worktree]')
    .description('the run folders of a worktree read from disk alone: incomplete, stale and damaged runs')
    .action(
      action(rt, async ({ print, g }, worktree: string | undefined) => {
        const settings = rt.settings(g);
        const wt = await resolveWorktree(resolve(rt.cwd, worktree ?? '.'));
        const scan = scanRuns(runsDirFor(wt, settings.runsDir), {
          staleAfterMs: settings.staleAfterMs,
          now: new Date().toISOString(),
        });
        print(scan, () =>
          [
            scan.runs.length
              ? table(
                  ['RUN', 'STATUS', 'PHASE', 'STEP', 'LAST ACTIVITY', 'EVENTS', 'FLAGS', 'TITLE'],
                  scan.runs.map((r) => [
                    r.workflow_id,
                    r.status ?? '?',
                    r.phase ?? '?',
                    r.step ?? '?',
                    r.last_activity ?? '?',
                    r.events,
                    [
                      r.stale ? 'stale' : '',
                      r.flagged ? 'damaged' : '',
                      r.recovered_with_gaps ? 'recovered-with-gaps' : '',
                    ]
                      .filter(Boolean)
                      .join(',') || '-',
                    r.title ?? '',
                  ]),
                )
              : `no runs in ${scan.runs_dir}`,
            ...scan.warnings.map((w) => `warning: ${w}`),
          ].join('\n'),
        );
      }),
    );

  program
    .command('session-info [id]')
    .description(
      "one workflow's details: topic, status, step, checkpoints, age of the last auto-save, recovery options",
    )
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, g }, id: string | undefined, o: { workflow?: string }) => {
        const ref = await takenRef(rt, client, id ?? o.workflow);
        const s = (await client.status(ref)) as StatusView;
        const plan: RecoveryPlan = await client.recoveryOptions({ ...ref, workflowId: s.workflow.id });
        const settings = rt.settings(g);
        const runDir = join(runsDirFor(s.workflow.worktree, settings.runsDir), runFolderName(s.workflow.id));
        const file = readJsonFile(runPaths(runDir).liveState);
        const fileSavedAt = file.ok ? String((file.value as { saved_at?: unknown }).saved_at ?? '') : '';
        const saves = [fileSavedAt, s.live_state?.saved_at ?? ''].filter(Boolean).sort();
        const savedAt = saves[saves.length - 1] ?? s.workflow.updated_at;
        const age = Math.max(0, Math.round((Date.now() - Date.parse(savedAt)) / 1000));
        const info = {
          workflow_id: s.workflow.id,
          topic: s.workflow.title,
          status: s.workflow.status,
          step: progressLabel(s.counts.tasks, ''),
          progress: progressPercent(s.counts.tasks),
          sessions: s.workflow.session_count,
          worktree: s.workflow.worktree,
          run_folder: runDir,
          checkpoints: s.checkpoints,
          checkpoints_total: s.counts.checkpoints ?? s.checkpoints.length,
          live_state: {
            saved_at: savedAt,
            age_seconds: age,
            file: file.ok ? runPaths(runDir).liveState : null,
          },
          recovery: plan,
        };
        const older = (s.counts.checkpoints ?? s.checkpoints.length) - s.checkpoints.length;
        print(info, () =>
          [
            `${info.workflow_id}  ${info.topic}`,
            `status: ${info.status}   step: ${info.step} (${info.progress}%)   sessions: ${info.sessions}`,
            `worktree: ${info.worktree}`,
            `run folder: ${info.run_folder}`,
            `live state: saved ${savedAt} (${formatAgo(age * 1000)})`,
            `checkpoints: ${s.checkpoints.map((c) => `${c.name}${c.commit ? `@${c.commit.slice(0, 8)}` : ''}`).join(', ') || 'none'}${older > 0 ? ` and ${older} older (baton checkpoints)` : ''}`,
            // as `baton recover` says it: why not now first, and the options only where a command makes them choosable
            ...(plan.refusal
              ? [
                  `recovery: ${refusalText(plan.refusal)}`,
                  ...(plan.refusal.command ? ['once it is paused, recovery would offer:'] : []),
                ]
              : ['recovery options:']),
            ...(plan.refusal?.command === null ? [] : plan.options).map(
              (op, i) =>
                `  [${i + 1}] ${op.type}${op.type === plan.recommended ? ' (recommended)' : ''}: ${op.description}; data loss: ${op.data_loss}`,
            ),
          ].join('\n'),
        );
      }),
    );
}
