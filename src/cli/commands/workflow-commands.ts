import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import {
  BatonError,
  invalidInput,
  isTerminal,
  openTasksPhrase,
  parseDuration,
  progressLabel,
  readNewTasks,
  workflowStatuses,
  statusList,
  leftOpen,
  tasksFromPlan,
  counted,
} from '../../core/index.js';
import type { WorkflowView } from '../../client/views.js';
import { action, theirsOption, workflowOption } from '../action.js';
import { argumentOrOption, collect, parseTaskSpec, withTaskIds } from '../parse.js';
import { warnWithoutGit } from '../git-warning.js';
import { resolveWorktree } from '../../git/git.js';
import type { Runtime } from '../runtime.js';
import { hideEmptyCancelled } from '../hidden-empty.js';
import { rebuildFromDiskCommand } from './disk-rebuild-command.js';
import { table } from '../output.js';
import { linkedWorktrees, sessionsTable } from '../sessions-table.js';
import { statusWord } from '../resumable-words.js';
import { takenRef } from '../taken-workflow.js';
import { askerAt, theirsAmong } from '../whose-workflow.js';

const describe = (w: WorkflowView) =>
  [
    `${w.id}  ${w.title}`,
    `  status: ${w.status}${w.pause_requested ? ' (pause requested)' : ''}   sessions: ${w.session_count}   tasks: ${w.counts.total ? progressLabel(w.counts) : 'none'}`,
    `  worktree: ${w.worktree}`,
    ...w.tasks.map(
      (t) =>
        `  [${t.status === 'done' ? 'x' : t.status === 'in_progress' ? '>' : ' '}] ${t.id} ${t.title} (${t.status})${t.deps.length ? ` after ${t.deps.join(', ')}` : ''}`,
    ),
  ].join('\n');

function readTasksFile(path: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw invalidInput(`cannot read --tasks-file ${path}: ${(e as Error).message}`);
  }
  const list = Array.isArray(raw) ? raw : (raw as { tasks?: unknown })?.tasks;
  if (!Array.isArray(list))
    throw invalidInput(`--tasks-file ${path} must hold a JSON array of tasks (or {"tasks": [...]})`);
  // an empty file is a mistake (a workflow with nothing for `baton run` to do), not a plan to add tasks later
  if (!list.length)
    throw invalidInput(
      `--tasks-file ${path} holds no tasks: give at least one ({"id","title"}), or leave the option out to add tasks later (\`baton task add\`)`,
    );
  try {
    return readNewTasks(list);
  } catch (e) {
    throw BatonError.isInstance(e) ? invalidInput(`--tasks-file ${path}: ${e.message}`) : e;
  }
}

export function registerWorkflowCommands(program: Command, rt: Runtime) {
  program
    .command('create [title]')
    .description('create a workflow in the current worktree: `baton create "Add login"` (or --title)')
    .option('--title <title>', 'what the workflow is about (the same as the title argument)')
    .option('--task <task>', 'a task: a title, or ID:Title[:DEP,DEP] (repeatable)', collect, [])
    .option('--tasks-file <path>', 'tasks as JSON: [{"id","title","description","deps","lane"}]')
    .option('--issue-id <id>', 'the issue id')
    .option('--issue-title <title>', 'the issue title (default: the title)')
    .option(
      '--issue-description <text>',
      'the issue text (given no task and no list in the plan, its list items are the tasks)',
    )
    .option(
      '--plan <path>',
      'a markdown plan file; given no task, its list items (numbered, -, *, - [ ]) are the tasks, each after the one before (unless the list is said to be in any order), a checked - [x] one done',
    )
    .option('--plan-text <markdown>', 'the plan as text (read as --plan is)')
    .action(
      action(
        rt,
        async (
          { client, print },
          named: string | undefined,
          o: Record<string, string | string[] | undefined>,
        ) => {
          const title = argumentOrOption(named, o.title as string | undefined, {
            option: '--title',
            noun: 'title',
            need: 'a workflow needs a title',
            example: ['baton create', 'Add login'],
          });
          const tasks = withTaskIds([
            ...(o.task as string[]).map(parseTaskSpec),
            ...(o.tasksFile ? readTasksFile(o.tasksFile as string) : []),
          ]);
          let plan = (o.planText as string | undefined) ?? '';
          if (o.plan) {
            try {
              plan = readFileSync(o.plan as string, 'utf8');
            } catch (e) {
              throw invalidInput(`cannot read --plan ${o.plan}: ${(e as Error).message}`);
            }
          }
          const issue =
            o.issueId || o.issueDescription
              ? {
                  id: (o.issueId as string) ?? '',
                  title: (o.issueTitle as string) ?? title,
                  description: (o.issueDescription as string) ?? '',
                }
              : null;
          const w = await client.create({ title, tasks, issue, plan, cwd: rt.cwd });
          const read = tasksFromPlan({ tasks, plan, issue });
          const from = o.plan
            ? `the plan ${o.plan as string}`
            : o.planText
              ? 'the plan'
              : 'the issue description';
          // where the tasks came from, or why there are none, said where the workflow is shown
          const said = read
            ? `${counted(read.tasks.length, 'task')} read from the list in ${read.from === 'plan' ? from : 'the issue description'}${read.done.length ? ` (${read.done.length} checked there: done)` : ''}`
            : !tasks.length && (plan.trim() || issue?.description.trim())
              ? `no task: ${from} has no list (numbered, - or * items, a - [ ] checklist), so it is kept as text only; add tasks with \`baton task add "<title>" -w ${w.id}\`, or create with --task or --tasks-file`
              : null;
          print({ id: w.id, workflow: w, ...(read ? { tasks_from: read.from } : {}) }, () =>
            [`created ${describe(w)}`, ...(said ? [said] : [])].join('\n'),
          );
          // tasks given with a plan that has a list: the given ones are the tasks, and the list not read is said
          const unread = tasks.length ? tasksFromPlan({ tasks: [], plan, issue }) : null;
          if (unread) {
            const given = o.task?.length ? '--task' : '--tasks-file';
            rt.io.err(
              `baton: the list in ${unread.from === 'plan' ? from : 'the issue description'} (${counted(unread.tasks.length, 'item')}) is not read as tasks, since ${given} gave them; ${unread.from === 'plan' ? 'the plan is kept as text (the dashboard shows it, `baton run` gives it to the agent)' : 'the description is kept as text (the briefing gives it)'}. To make its items the tasks, create without ${given}`,
            );
          }
          await warnWithoutGit(rt.io, w.worktree);
          // the worktree had another incomplete workflow: a command here may have to be told which one it means
          const open = workflowStatuses.filter((st) => !isTerminal(st));
          const others = (await client.list({ worktree: w.worktree, status: open })).filter(
            (x) => x.id !== w.id,
          );
          if (others.length)
            rt.io.err(
              `baton: ${w.worktree} has ${others.length === 1 ? 'another incomplete workflow' : `${others.length} other incomplete workflows`} (${others.map((x) => `${x.id} "${x.title}"`).join(', ')}): a command here may ask which one it means (-w names it)`,
            );
        },
      ),
    );

  program
    .command('list')
    .description('list workflows')
    .option('--status <status>', `only these statuses (comma separated: ${workflowStatuses.join(', ')})`)
    .option('--here', 'only workflows of the current worktree')
    .option('--all', 'also the cancelled workflows that hold nothing (conversations opened and left)')
    .action(
      action(rt, async ({ client, print, g }, o: { status?: string; here?: boolean; all?: boolean }) => {
        const status = o.status === undefined ? undefined : statusList(o.status, '--status');
        // --here: this worktree's (yours, on a shared database: a teammate's clone at the same path is not)
        const here = o.here ? await resolveWorktree(rt.cwd) : undefined;
        const wanted = await client.list({
          ...(status ? { status } : {}),
          ...(here ? { worktree: here } : {}),
        });
        // a status filter names what it wants: the cancelled ones with the rest
        const { shown: list, json, note } = hideEmptyCancelled(wanted, 'list', o.all === true || !!status);
        // on a database a team shares, whose each one is (one person's list needs no such column)
        const owners = new Set(list.map((w) => w.owner));
        const byOwner = owners.size > 1;
        // none at all (no status asked for): how work becomes one here, `baton init` first or not
        const start = list.length || note || status || g.json ? null : await rt.howWorkStartsHere();
        const unfollowed = await notFollowedHere(list, rt.env);
        const alone = new Set(unfollowed.flatMap((u) => u.workflows));
        print({ workflows: list, ...json, ...(unfollowed.length ? { not_followed: unfollowed } : {}) }, () =>
          [
            ...(list.length
              ? [
                  table(
                    ['ID', 'STATUS', 'STEP', 'TITLE', 'BRANCH', 'WORKTREE', ...(byOwner ? ['OWNER'] : [])],
                    list.map((w) => [
                      w.id,
                      statusWord(w, alone.has(w.id)),
                      progressLabel(w.counts, ''),
                      w.title,
                      w.branch ?? '-',
                      w.worktree,
                      ...(byOwner ? [w.owner ?? '-'] : []),
                    ]),
                  ),
                ]
              : note
                ? []
                : [start ? `no workflows${here ? ' here' : ''} yet; ${start}` : 'no workflows']),
            ...unfollowed.map(unfollowedNote),
            ...(note ? [note] : []),
          ].join('\n'),
        );
      }),
    );

  program
    .command('show')
    .description('show one workflow')
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, o: { workflow?: string }) => {
        const w = await client.get(await takenRef(rt, client, o.workflow));
        print({ workflow: w }, () => describe(w));
      }),
    );

  program
    .command('sessions')
    .description('every workflow with its step x/y, status and whether it can be resumed')
    .option('--all', 'also the cancelled workflows that hold nothing (conversations opened and left)')
    .action(
      action(rt, async ({ client, print, rt, g }, o: { all?: boolean }) => {
        // each row's needs_you names the agents this machine's hooks saw go, as `baton status` does
        const { goneAgentsOf } = await import('../../integrations/hooks/agent-watch.js');
        const home = rt.settings(g).home;
        const all = await client.sessions({ goneAgents: (w) => goneAgentsOf(w, home) });
        const { shown, json, note } = hideEmptyCancelled(all, 'sessions', o.all === true);
        const rows = [...shown];
        const order = (r: (typeof rows)[number]) => (r.resumable ? 0 : r.status === 'in_progress' ? 1 : 2);
        rows.sort((a, b) => order(a) - order(b));
        // none at all: how work becomes one here, `baton init` first or not
        const start = rows.length || note || g.json ? null : await rt.howWorkStartsHere();
        const unfollowed = await notFollowedHere(rows, rt.env);
        const alone = new Set(unfollowed.flatMap((u) => u.workflows));
        // the teammates' workflows (another owner than the person here, as `isOwner` judges): apart in the headline
        const theirs = await theirsAmong(rt.cwd, rows);
        const linked = await linkedWorktrees(rows.map((r) => r.worktree));
        print({ sessions: rows, ...json, ...(unfollowed.length ? { not_followed: unfollowed } : {}) }, () => {
          if (!rows.length) return note ?? `no workflows yet; ${start}`;
          // on a database a team shares, whose each one is, as `baton list` says it: a teammate's workflow goes on in
          // their agent's next session, not in yours; the headline counts yours, and says the teammates' apart
          const byOwner = new Set(rows.map((r) => r.owner)).size > 1;
          const ofYours = (r: (typeof rows)[number]) => !byOwner || !theirs.has(r.id);
          const stoppedAll = rows.filter((r) => r.resume_by === 'resume');
          const followedAll = rows.filter((r) => r.resume_by === 'next_session' && !alone.has(r.id));
          // run by `baton run` and nothing runs them now: they wait for the command, not for a resume
          const idle = rows.filter((r) => r.next_step?.command && ofYours(r));
          const stopped = stoppedAll.filter(ofYours).length;
          const followed = followedAll.filter(ofYours).length;
          const plural = (n: number) => (n > 1 ? 's' : '');
          const yours = byOwner ? ' of yours' : '';
          const teammates = (n: number) => (n ? `; ${n} of teammates' below (OWNER)` : '');
          // a workflow the hooks follow has nothing to resume: its agent's next session in the worktree goes on with it
          const head = [
            (stopped || stoppedAll.length) &&
              `${stopped} workflow${plural(stopped)}${yours} can be resumed (baton resume -w <id>)${teammates(stoppedAll.length - stopped)}`,
            (followed || followedAll.length) &&
              `${followed} workflow${plural(followed)}${yours} go${followed > 1 ? '' : 'es'} on in the next session of the agent whose hooks follow ${followed > 1 ? 'them' : 'it'}, started in ${followed > 1 ? 'their' : 'its'} worktree (no \`baton resume\` needed)${teammates(followedAll.length - followed)}`,
            idle.length &&
              (idle.length === 1
                ? `1 workflow${yours} is run by \`baton run\` and nothing runs it now: \`${idle[0]!.next_step!.command}\` goes on with it`
                : `${idle.length} workflows${yours} are run by \`baton run\` and nothing runs them now: \`baton run -w <id>\` goes on with each`),
          ].filter(Boolean);
          return [
            ...(head.length ? [`${head.join('\n')}\n`] : []),
            sessionsTable(rows, { byOwner, alone, linked }),
            ...unfollowed.map(unfollowedNote),
            ...(note ? [note] : []),
          ].join('\n');
        });
      }),
    );

  program
    .command('abandon [id]')
    .description(
      'end a workflow for good: cancelled, never offered for resume again (named by its id, or -w <id>)',
    )
    .option(
      '-w, --workflow <id>',
      'the workflow to end (without it, the one of this worktree is named, not ended)',
    )
    .option('--reason <text>', 'why')
    .option(...theirsOption)
    .action(
      action(
        rt,
        async (
          { client, print, rt },
          id: string | undefined,
          o: { workflow?: string; reason?: string; theirs?: boolean },
        ) => {
          const named = id ?? o.workflow;
          // what cannot be undone is never a default: the worktree's workflow is named, with the command that ends it
          if (named === undefined) {
            const w = await client.get(await takenRef(rt, client, undefined));
            throw invalidInput(
              `baton abandon ends a workflow for good (it is never resumed or recovered), so it takes the workflow's id: this worktree's is ${w.id} "${w.title}" (${w.status}, session ${w.session_count}, ${progressLabel(w.counts)}). To end it: \`baton abandon -w ${w.id}\`; to stop for now instead: \`baton pause\``,
              { workflow_id: w.id },
            );
          }
          // who asks: a teammate's workflow is refused unless --theirs, and the event records them
          const by = { identity: await askerAt(rt.cwd, client, rt.ref(named)), theirs: o.theirs === true };
          const w = await client.abandon(rt.ref(named), o.reason ?? null, by);
          print({ workflow: w }, () => `abandoned ${w.id} (${w.status})`);
        },
      ),
    );

  program
    .command('complete [id]')
    .description(
      'the work is done: complete a workflow in progress, never offered for resume again (named by its id, or -w <id>)',
    )
    .option('-w, --workflow <id>', 'the workflow that is done (without it, the one of this worktree)')
    .option('--reason <text>', 'why')
    .option('--force', 'complete it even with tasks not done (they are left as they are, and named)')
    .action(
      action(
        rt,
        async (
          { client, print, rt },
          id: string | undefined,
          o: { workflow?: string; reason?: string; force?: boolean },
        ) => {
          const w = await client.complete(await takenRef(rt, client, id ?? o.workflow), {
            reason: o.reason ?? null,
            force: o.force === true,
          });
          // what --force left open, said (a completed workflow is never resumed: nobody takes them up)
          const open = leftOpen(w).map(({ id, title, status }) => ({ id, title, status }));
          print(
            { workflow: w, left_open: open },
            () =>
              `completed ${w.id} "${w.title}" (${progressLabel(w.counts)})${open.length ? `, tasks left open: ${openTasksPhrase(open)}` : ''}; the next conversation here starts a new workflow`,
          );
        },
      ),
    );

  program
    .command('cleanup')
    .description('delete finished workflows (completed, failed, cancelled) not touched for a while')
    .requiredOption('--older-than <duration>', 'e.g. 30d, 12h')
    .option('--dry-run', 'only list what would be removed')
    .action(
      action(rt, async ({ client, print }, o: { olderThan: string; dryRun?: boolean }) => {
        const r = (await client.cleanup({
          olderThanMs: parseDuration(o.olderThan, '--older-than'),
          dryRun: o.dryRun === true,
        })) as {
          removed: { id: string; title: string; status: string }[];
          kept?: { id: string; reason: string }[];
        };
        const kept = (r.kept ?? []).map((w) => `kept ${w.id}: ${w.reason}`);
        print(r, () =>
          [
            r.removed.length
              ? `${o.dryRun ? 'would remove' : 'removed'} ${r.removed.length} workflow(s):\n${r.removed.map((w) => `  ${w.id} ${w.status} ${w.title}`).join('\n')}`
              : kept.length
                ? ''
                : 'nothing to clean up',
            ...kept,
          ]
            .filter(Boolean)
            .join('\n'),
        );
      }),
    );

  program
    .command('rebuild')
    .description(
      'recompute the query tables from the event log (--from-disk: from the run folders of a worktree)',
    )
    .option(...workflowOption)
    .option('--from-disk <worktree>', "recreate the database rows of every run in the worktree's run folders")
    .action(
      action(rt, async ({ client, print, g }, o: { workflow?: string; fromDisk?: string }) => {
        if (o.fromDisk !== undefined) return rebuildFromDiskCommand(rt, client, g, o.fromDisk, print);
        const r = await client.rebuild(o.workflow);
        print(r, () => `rebuilt ${r.workflows} workflow(s) from ${r.events} events`);
      }),
    );
}

/** What `baton list` and `baton sessions` say under their table of a worktree no hooks follow now. */
const unfollowedNote = (u: { worktree: string; workflows: string[] }) =>
  `note: no Baton hooks follow the agent sessions in ${u.worktree} now (\`baton init --undo\`, or never set up there): ${u.workflows.join(', ')} ${u.workflows.length > 1 ? 'do' : 'does'} not go on by itself; \`baton init\` there follows its sessions again, \`baton abandon <id>\` ends one`;

/**
 * The worktrees of this machine whose workflows the sessions table says go on in the agent's next session there, but
 * where none of Baton's hooks is wired now (undone, or never set up): that next session is not followed.
 */
async function notFollowedHere(
  rows: readonly { id: string; resume_by: string | null; worktree: string }[],
  env: NodeJS.ProcessEnv,
): Promise<{ worktree: string; workflows: string[] }[]> {
  const byWorktree = new Map<string, string[]>();
  for (const r of rows)
    if (r.resume_by === 'next_session' && existsSync(r.worktree))
      byWorktree.set(r.worktree, [...(byWorktree.get(r.worktree) ?? []), r.id]);
  if (!byWorktree.size) return [];
  const { followingHooks } = await import('../../integrations/init/following-hooks.js');
  return [...byWorktree]
    .filter(([worktree]) => !followingHooks(worktree, env).length)
    .map(([worktree, workflows]) => ({ worktree, workflows }));
}
