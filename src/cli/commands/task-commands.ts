import type { Command } from 'commander';
import { action, workflowOption } from '../action.js';
import type { Runtime } from '../runtime.js';
import type { TaskAction } from '../../client/baton-client.js';
import { parseNumber, parseTaskSpec } from '../parse.js';
import { takenRef } from '../taken-workflow.js';

const verbs: Record<TaskAction, { help: string; note?: string; past: string }> = {
  start: { help: 'start a task (its dependencies must be done)', past: 'started' },
  done: {
    help: 'complete a task: snapshot, checkpoint, and a pause if one was requested',
    note: '--summary <text>',
    past: 'completed',
  },
  fail: { help: 'mark a task failed', note: '--reason <text>', past: 'failed' },
  block: { help: 'mark a task blocked', note: '--reason <text>', past: 'blocked' },
  unblock: { help: 'make a blocked task pending again', past: 'unblocked' },
  skip: { help: 'skip a task', note: '--reason <text>', past: 'skipped' },
};

export function registerTaskCommands(program: Command, rt: Runtime) {
  const task = program.command('task').description('add a task, or move one through its states');
  task
    .command('add <spec>')
    .description(
      'add a task to the plan: ID:Title[:DEP,DEP] (e.g. "T4:Write the docs:T2,T3"), or a title alone (its id: the next free T<n>)',
    )
    .option('--after <task-id>', 'place it right after this task in the plan (default: at the end)')
    .option('--lane <n>', "its lane (default: the lane of --after's task, else the plan's highest lane)")
    .option('--description <text>', 'what the task is about')
    .option(...workflowOption)
    .action(
      action(
        rt,
        async (
          { client, print, rt },
          spec: string,
          o: { workflow?: string; after?: string; lane?: string; description?: string },
        ) => {
          const parsed = parseTaskSpec(spec);
          const r = await client.addTask(await takenRef(rt, client, o.workflow), {
            ...(parsed.id !== undefined ? { id: parsed.id } : {}),
            title: parsed.title,
            deps: parsed.deps ?? [],
            ...(o.description !== undefined ? { description: o.description } : {}),
            lane: o.lane === undefined ? null : parseNumber(o.lane, '--lane', { int: true, min: 0 }),
            after: o.after ?? null,
          });
          print(
            r,
            () =>
              `task ${r.task.id} added to ${r.workflow_id} (lane ${r.task.lane}${r.task.deps.length ? `, after ${r.task.deps.join(', ')} ${r.task.deps.length === 1 ? 'is' : 'are'} done` : ''})`,
          );
        },
      ),
    );
  for (const [verb, spec] of Object.entries(verbs) as [TaskAction, (typeof verbs)[TaskAction]][]) {
    const cmd = task
      .command(`${verb} <task-id>`)
      .description(spec.help)
      .option(...workflowOption);
    if (spec.note) cmd.option(spec.note, 'a note kept with the task');
    cmd.action(
      action(
        rt,
        async (
          { client, print, rt },
          taskId: string,
          o: { workflow?: string; summary?: string; reason?: string },
        ) => {
          const ref = await takenRef(rt, client, o.workflow);
          const r = (await client.task(ref, verb, taskId, o.summary ?? o.reason ?? null)) as {
            workflow_id: string;
            workflow_status: string;
            checkpoint?: string | null;
            paused?: boolean;
            snapshot_id?: string | null;
            completes_with_conversation?: boolean;
            pause_waits?: string;
          };
          print(r, () => {
            const lines = [`task ${taskId} ${spec.past} (workflow ${r.workflow_id} is ${r.workflow_status})`];
            if (r.checkpoint) lines.push(`checkpoint ${r.checkpoint}, snapshot ${r.snapshot_id}`);
            if (r.completes_with_conversation)
              lines.push(
                'every task is finished: the workflow completes when the agent conversation open on it ends (a quit or /clear), or goes on if you ask it for more',
              );
            if (r.paused)
              lines.push(
                `the requested pause took effect at this task boundary; resume with \`baton resume -w ${r.workflow_id}\``,
              );
            // the pause asked for is not taken here: what it waits for, as `baton status` says it
            if (r.pause_waits) lines.push(`not paused yet: ${r.pause_waits}`);
            return lines.join('\n');
          });
        },
      ),
    );
  }
}
