import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { modeEnv, type CliMode } from '../helpers/cli-modes.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

type Json = Record<string, any>;

/**
 * The CLI's core walk-through in one mode: over the local store (cli-core.test.ts, in `npm test`), or against a real
 * `baton serve` (BATON_URL; cli-core-server.test.ts, in `npm run test:slow`). Not a test file itself: each of those
 * runs it once.
 */
export function cliCoreSuite(mode: CliMode): void {
  /** The issue's invocations, exactly as written, in a temporary git repository. */
  describe(`baton CLI (${mode}): the core walk-through`, () => {
    const repo = makeRepo();
    const env = modeEnv(mode);
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    let id = '';

    beforeAll(async () => {
      const r = await baton(
        'create',
        '--title',
        'Add login',
        '--task',
        'T1:Write schema',
        '--task',
        'T2:Implement API:T1',
        '--task',
        'T3:Write tests:T2',
        '--json',
      );
      expect(r.code, r.stderr).toBe(0);
      const out = r.json<{
        id: string;
        workflow: { tasks: { id: string; deps: string[] }[]; status: string; worktree: string };
      }>();
      id = out.id;
      expect(out.workflow.status).toBe('pending');
      expect(out.workflow.worktree).toBe(repo);
      expect(out.workflow.tasks.map((t) => [t.id, t.deps])).toEqual([
        ['T1', []],
        ['T2', ['T1']],
        ['T3', ['T2']],
      ]);
    });

    it('records, pauses at the task boundary, snapshots and resumes', async () => {
      expect((await baton('task', 'start', 'T1')).code).toBe(0);
      // the task under way is the next one; nothing else can start before it is done: said without contradiction
      const under = (await baton('status')).stdout;
      expect(under).toMatch(/^next task: T1 .+ \(in progress\)$/m);
      expect(under).toMatch(/^ready to start: none$/m);
      for (const args of [
        [
          'record',
          'decision',
          '--type',
          'library',
          '--description',
          'Use argon2 for hashing',
          '--rationale',
          'memory-hard',
          '--task',
          'T1',
        ],
        [
          'record',
          'error',
          '--type',
          'TypeError',
          '--message',
          'x is undefined',
          '--resolution',
          'unresolved',
        ],
        ['record', 'history', 'ran migrations; schema v2 in place'],
        [
          'record',
          'test',
          '--phase',
          'red',
          '--failing',
          'auth.spec.ts > rejects bad password',
          '--command',
          'npm test',
        ],
        [
          'record',
          'usage',
          '--tokens',
          '120000',
          '--cost-usd',
          '0.42',
          '--context-window',
          '200000',
          '--duration',
          '23',
        ],
      ]) {
        const r = await baton(...args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      }

      const pause = await baton('pause', '--reason', 'end of day', '--pause-timeout', '90s', '--json');
      expect(pause.json()).toMatchObject({
        outcome: 'requested',
        status: 'in_progress',
        waiting_for: ['T1'],
        pause_request: { reason: 'end of day', timeout_ms: 90_000 },
      });
      // asked again while it waits: the first request and its reason stand, and the answer says so
      const again = await baton('pause', '--reason', 'lunch');
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(
        /^a pause is already requested for wf-\S+ \(reason: end of day, (?:just now|\dm\d\ds ago)\): it pauses when T1 finishes, or by force once 1m30s have passed \(the request's timeout, `baton pause --pause-timeout`\); `baton pause --force` pauses now, `baton resume` withdraws the request\nthe new reason \(lunch\) was not recorded: the first request stands; `baton pause --force --reason <text>` pauses now with it\n$/,
      );
      const same = await baton('pause', '--reason', 'end of day', '--json');
      expect(same.json()).toMatchObject({
        outcome: 'already_requested',
        waiting_for: ['T1'],
        pause_request: { reason: 'end of day', requested_at: expect.any(String) },
        ignored_reason: null,
      });
      expect((await baton('pause', '--reason', 'end of day')).stdout).not.toContain('not recorded');
      // none yet: the answer says what makes one, not only that there is none
      expect((await baton('checkpoints')).stdout).toMatch(
        /^no checkpoints yet: Baton makes one when a task is done .*`baton checkpoint --name <name>` makes one now\n$/,
      );

      const done = await baton('task', 'done', 'T1', '--json');
      expect(done.json()).toMatchObject({
        workflow_status: 'paused',
        paused: true,
        task: { id: 'T1', status: 'done' },
      });

      const status = (await baton('status', '--json')).json<Record<string, any>>();
      expect(status.workflow).toMatchObject({
        id,
        status: 'paused',
        pause_reason: 'end of day',
        session_count: 1,
      });
      expect(status.counts.tasks).toMatchObject({ total: 3, done: 1, remaining: 2 });
      expect(status.next_task).toMatchObject({ id: 'T2' });
      expect(status.runnable_tasks).toEqual([{ id: 'T2', title: 'Implement API' }]);
      // in plain words: how to go on, and what was used
      const plain = (await baton('status')).stdout;
      expect(plain).toMatch(/^next task: T2 Implement API\nready to start: T2$/m);
      expect(plain).toContain(
        `to go on: \`baton run -w ${id}\` (Baton runs the agent) or \`baton resume -w ${id}\``,
      );
      // an agent time under a minute in seconds, as every span is said
      expect(plain).toMatch(/^usage: 120,000 tokens, \$0\.42, agent time 0m23s(;|$)/m);
      // what failed and is still open, and where the rest is
      expect(plain).toMatch(
        /^open errors: 1 \(newest: \S+ TypeError: x is undefined\); `baton details errors` lists them, `baton record resolve <id> --resolution fixed` closes one that no longer applies$/m,
      );
      expect(status.snapshots).toHaveLength(1);
      expect(status.snapshots[0]).toMatchObject({
        trigger: 'pause',
        pause_reason: 'end of day',
        tasks_completed: 1,
        tasks_remaining: 2,
      });

      const snapshots = (await baton('snapshots', '--json')).json<{
        snapshots: { id: string; trigger: string }[];
      }>();
      expect(snapshots.snapshots.map((s) => s.trigger)).toEqual(['pause']);

      writeFileSync(join(repo, 'schema.sql'), 'create table users();\n');
      const resume = (await baton('resume', '--json')).json<Record<string, any>>();
      expect(resume).toMatchObject({
        workflow_id: id,
        session_number: 2,
        status: 'in_progress',
        next_task: { id: 'T2' },
      });
      expect(resume.warnings.join('\n')).toMatch(/schema\.sql/);
      for (const section of [
        'Goal',
        'Plan Status:',
        'Key Decisions Made',
        'Errors Encountered',
        'Git State',
        'TDD State',
        'What to Do Next',
      ]) {
        expect(resume.context).toContain(`### ${section}`);
      }
      expect(resume.context).toContain('Use argon2 for hashing');
      expect(resume.context).toContain('Rationale: memory-hard');
      expect(resume.context).toContain('! UNRESOLVED: TypeError: x is undefined');
      expect(resume.context).toContain('auth.spec.ts > rejects bad password');
      expect(resume.context).toContain('The previous session ended because: pause: end of day');

      const sessions = await baton('sessions');
      expect(sessions.code).toBe(0);
      expect(sessions.stdout).toMatch(/Add login\s+main\s+1\/3\s+in_progress/);
      // in progress, it has nothing to resume: not a "no", which reads as stuck
      expect(sessions.stdout).toMatch(/in_progress\s.*\snot stopped$/m);

      const cp = (await baton('checkpoint', '--name', 'architecture', '--json')).json<{
        checkpoint: { name: string; commit: string };
      }>();
      expect(cp.checkpoint.name).toBe('cp-02-architecture');
      expect(cp.checkpoint.commit).toMatch(/^[0-9a-f]{40}$/);
      // the snapshots name the checkpoints made of them, in the table as in --json: the name recover takes
      const listed = (await baton('snapshots', '--json')).json<{ snapshots: { checkpoint?: string }[] }>();
      expect(listed.snapshots.at(-1)?.checkpoint).toBe('cp-02-architecture');
      const table = (await baton('snapshots')).stdout.trim().split('\n');
      expect(table[0]).toMatch(/^SNAPSHOT\s+CHECKPOINT\s+SESSION/);
      expect(table.at(-1)).toMatch(/^snap-\S+\s+cp-02-architecture\s+\d+\s+manual\s/);

      const recover = (await baton('recover', '--json')).json<{
        recovery: { options: { type: string }[] };
      }>();
      expect(recover.recovery.options.map((o) => o.type)).toEqual(['checkpoint', 'live_state', 'fresh']);

      const abandoned = (await baton('abandon', id, '--json')).json<{ workflow: { status: string } }>();
      expect(abandoned.workflow.status).toBe('cancelled');
      // over: nothing goes on with it, though tasks were left open
      const over = (await baton('status', '-w', id, '--json')).json<{
        next_task: unknown;
        runnable_tasks: unknown[];
      }>();
      expect(over).toMatchObject({ next_task: null, runnable_tasks: [] });
      expect((await baton('status', '-w', id)).stdout).toContain('next task: none');

      const cleanup = (await baton('cleanup', '--older-than', '30d', '--json')).json<{
        removed: unknown[];
      }>();
      expect(cleanup.removed).toEqual([]);
      const cleanupAll = (await baton('cleanup', '--older-than', '0s', '--json')).json<{
        removed: { id: string }[];
      }>();
      expect(cleanupAll.removed.map((w) => w.id)).toEqual([id]);
    });

    it('says progress one way everywhere: the done and the skipped tasks counted apart', async () => {
      const other = makeRepo();
      const b = (...args: string[]) => runCli(args, { cwd: other, env });
      expect(
        (await b('create', '--title', 'Trim', '--task', 'S1:One', '--task', 'S2:Two', '--task', 'S3:Three'))
          .code,
      ).toBe(0);
      await b('task', 'start', 'S1');
      expect((await b('task', 'done', 'S1')).code).toBe(0);
      expect((await b('task', 'skip', 'S2')).code).toBe(0);
      expect((await b('status')).stdout).toContain('tasks: 1/3 done, 1 skipped, 0 in progress');
      expect((await b('show')).stdout).toContain('tasks: 1/3 done, 1 skipped');
      expect((await b('list')).stdout).toMatch(/1\/3, 1 skipped/);
      // a skipped task is never counted done: not by the sessions table, its JSON (the server's /api/sessions), the
      // status JSON (/api/workflows/{id}/status), the list JSON, session-info, nor the session's own count
      const wf = (await b('status', '--json')).json<Json>();
      expect(wf.counts.tasks).toMatchObject({ total: 3, done: 1, skipped: 1, finished: 2, remaining: 1 });
      const listed = (await b('list', '--json'))
        .json<Json>()
        .workflows.find((w: Json) => w.id === wf.workflow.id);
      expect(listed.counts).toMatchObject({ done: 1, skipped: 1 });
      expect((await b('sessions')).stdout).toMatch(
        new RegExp(`${wf.workflow.id}\\s+Trim\\s+main\\s+1/3, 1 skipped\\s`),
      );
      const row = (await b('sessions', '--json'))
        .json<Json>()
        .sessions.find((s: Json) => s.id === wf.workflow.id);
      // the bar fills with the finished tasks (no work left in them); the step says the done and the skipped apart
      expect(row).toMatchObject({ step: '1/3, 1 skipped', progress: 67 });
      expect((await b('session-info', '--json')).json<Json>()).toMatchObject({
        step: '1/3, 1 skipped',
        progress: 67,
      });
      expect((await b('session-info')).stdout).toContain('step: 1/3, 1 skipped (67%)');
      expect((await b('session-status', '--json')).json<Json>()).toMatchObject({
        tasks_done: 1,
        tasks_total: 3,
      });
      // no agent reported into this session, and Baton runs none: said open, with no agent seen, not claimed running
      const ss = await b('session-status');
      expect(ss.stdout).toContain(
        'agent running: no agent seen (none has reported into this open session; no task in progress)',
      );
      // in progress: nothing to resume, said as such (not a "no", which reads as stuck)
      expect(ss.stdout).toContain('resumable: not stopped   needs resume: no');
      expect(JSON.parse((await b('session-status', '--json')).stdout)).toMatchObject({ agent_session: null });
    });

    it('status names a failed task and why; recover offers only the options there are', async () => {
      const other = makeRepo();
      const b = (...args: string[]) => runCli(args, { cwd: other, env });
      expect(
        (await b('create', '--title', 'Fragile', '--task', 'F1:First', '--task', 'F2:Second')).code,
      ).toBe(0);
      expect((await b('task', 'start', 'F1')).code).toBe(0);
      expect((await b('task', 'fail', 'F1', '--reason', 'tests failed in auth.spec.ts')).code).toBe(0);
      const status = await b('status');
      expect(status.stdout).toContain('tasks: 0/2 done, 1 failed, 0 in progress');
      expect(status.stdout).toContain('failed: F1 First: tests failed in auth.spec.ts');
      await b('task', 'start', 'F2');
      expect((await b('interrupt')).code).toBe(0);
      // no checkpoint was made yet: restoring one is not offered
      const recover = await b('recover');
      expect(recover.stdout).toMatch(/^choose with: baton recover --option live_state\|fresh$/m);
    });

    it('details: a category alone reads the workflow as it stands, as the live id of the briefing does', async () => {
      const other = makeRepo();
      const b = (...args: string[]) => runCli(args, { cwd: other, env });
      expect((await b('create', '--title', 'Live', '--task', 'L1:First')).code).toBe(0);
      await b('task', 'start', 'L1');
      const decided = await b(
        'record',
        'decision',
        '--type',
        'library',
        '--description',
        'Use zod',
        '--task',
        'L1',
      );
      expect(decided.code, decided.stderr).toBe(0);
      const alone = await b('details', 'decisions', '--json');
      expect(alone.code, alone.stderr).toBe(0);
      expect(JSON.parse(alone.stdout)).toEqual([expect.objectContaining({ description: 'Use zod' })]);
      // no snapshot yet: the briefing names the live one, with no workflow (a server resolves it from the worktree)
      const live = /baton details (live-\d+) <category>/.exec((await b('context')).stdout)![1]!;
      const named = await b('details', live, 'decisions', '--json');
      expect(named.code, named.stderr).toBe(0);
      expect(JSON.parse(named.stdout)).toEqual(JSON.parse(alone.stdout));
      // without --json, text: every record whole, under a line that says what was read
      const text = await b('details', 'decisions');
      expect(text.code, text.stderr).toBe(0);
      const lines = text.stdout.trim().split('\n');
      expect(lines[0]).toBe('1 decision (the workflow as it stands), oldest first:');
      expect(lines[2]).toMatch(/^dec-\S+ {2}\S+ {2}task L1 {2}library$/);
      expect(lines[3]).toBe('  Use zod');
      expect((await b('details', live, 'decisions')).stdout).toContain(
        `1 decision (the workflow as it stands now; ${live} names it live, so records since are included), oldest first:`,
      );
      expect((await b('details', 'errors')).stdout.trim()).toBe('no errors (the workflow as it stands)');
      // the usage says so: the snapshot id may be left out, the category may not
      const help = await b('details', '--help');
      expect(help.stdout).toMatch(/^Usage: baton details \[options\] \[snapshot-id\] <category>$/m);
      const none = await b('details');
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(
        /a category is needed: one of decisions, errors, .*: `baton details decisions`/,
      );
      // the other order is answered with the order, in the command that works
      const reversed = await b('details', 'decisions', live);
      expect(reversed.code).toBe(2);
      expect(reversed.stderr).toContain(`the snapshot id comes first: \`baton details ${live} decisions\``);
      // a decision typed as its words alone: the description, of type approach
      const plain = await b('record', 'decision', 'Validate at the edges', '--rationale', 'one place');
      expect(plain.code, plain.stderr).toBe(0);
      expect(JSON.parse((await b('details', 'decisions', '--json')).stdout)[1]).toMatchObject({
        description: 'Validate at the edges',
        decision_type: 'approach',
        rationale: 'one place',
      });
      const none2 = await b('record', 'decision', '--type', 'library');
      expect([none2.code, none2.stderr.trim()]).toEqual([
        2,
        'baton: a decision needs its description: baton record decision "Use argon2 for hashing" (or --description "Use argon2 for hashing")',
      ]);
    });

    it('recover on a running workflow says first that it cannot now and what to run; that command makes it work', async () => {
      const other = makeRepo();
      const b = (...args: string[]) => runCli(args, { cwd: other, env });
      expect(
        (await b('create', '--title', 'Running', '--task', 'R1:First', '--task', 'R2:Second')).code,
      ).toBe(0);
      await b('task', 'start', 'R1');
      expect((await b('checkpoint', '--name', 'early')).code).toBe(0);
      const listed = await b('recover');
      expect(listed.code, listed.stderr).toBe(0);
      const first = listed.stdout.split('\n')[0]!;
      expect(first).toMatch(
        /^workflow wf-\S+ is in_progress: it is not stopped, so there is nothing to recover/,
      );
      const command = /: `(baton pause --force -w wf-\S+)`$/.exec(first)?.[1];
      expect(command, first).toBeDefined();
      expect(listed.stdout).toContain('once it is paused, recovery would offer:');
      expect(listed.stdout).not.toContain('choose with');
      const json = (await b('recover', '--json')).json<{
        recovery: { recoverable: boolean; refusal: { reason: string; command: string } };
      }>();
      expect(json.recovery).toMatchObject({ recoverable: false, refusal: { command } });
      expect(first).toContain(json.recovery.refusal.reason);
      // choosing an option anyway: refused with the same words and the same command
      const refused = await b('recover', '--option', 'checkpoint');
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(`(in_progress): ${json.recovery.refusal.reason}: \`${command}\``);
      // the command it names, as printed, makes the options choosable
      const paused = await b(...command!.split(' ').slice(1));
      expect(paused.code, paused.stderr).toBe(0);
      const now = await b('recover');
      expect(now.stdout).toMatch(/^workflow wf-\S+ is paused\nrecovery options:/);
      expect(now.stdout).toMatch(/^choose with: baton recover --option checkpoint\|live_state\|fresh/m);
      const recovered = await b('recover', '--option', 'checkpoint', '--yes');
      expect(recovered.code, recovered.stderr).toBe(0);
      expect((await b('status', '--json')).json<{ workflow: { status: string } }>().workflow.status).toBe(
        'in_progress',
      );
    });

    it('create refuses a tasks file with a key it does not know, or with no tasks, and says which', async () => {
      const file = join(tempDir('baton-tasks-'), 'tasks.json');
      const before = (await baton('list', '--json')).json<{ workflows: unknown[] }>().workflows.length;
      // "depends" for "deps": taken, it would drop the dependency and run T2 before T1
      writeFileSync(
        file,
        JSON.stringify([
          { id: 'T2', title: 'API', depends: ['T1'] },
          { id: 'T1', title: 'Schema' },
        ]),
      );
      const typo = await baton('create', '--title', 'Typo', '--tasks-file', file);
      expect(typo.code).toBe(2);
      expect(typo.stderr.trim()).toBe(
        `baton: --tasks-file ${file}: task 1 (T2): unknown key "depends" (a task has id, title, description, deps, lane)`,
      );
      writeFileSync(file, JSON.stringify({ tasks: [] }));
      const empty = await baton('create', '--title', 'Empty', '--tasks-file', file);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toMatch(/--tasks-file .*tasks\.json holds no tasks/);
      expect((await baton('list', '--json')).json<{ workflows: unknown[] }>().workflows).toHaveLength(before);
    });

    it("create reads a plan's list into tasks, a checked item done, and says when a plan has none", async () => {
      // a repository of its own: the workflows made here would stand beside the walk-through's
      const here = makeRepo();
      const b = (...args: string[]) => runCli(args, { cwd: here, env });
      const plan = join(tempDir('baton-plan-'), 'plan.md');
      writeFileSync(
        plan,
        '# Checkout rewrite\n\nSteps:\n\n1. Cart model\n   - keep prices in cents\n2. Price rules\n3. Docs\n',
      );
      const made = await b('create', '--title', 'Checkout', '--plan', plan);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toMatch(/^ {2}\[ \] T1 Cart model \(pending\)$/m);
      expect(made.stdout).toContain(`3 tasks read from the list in the plan ${plan}`);
      const id = /^created (\S+)/.exec(made.stdout)?.[1] ?? '';
      const shown = (await b('status', '-w', id, '--json')).json<Json>();
      // the list is an order: each item after the one before, so only the first can start
      expect(made.stdout).toMatch(/^ {2}\[ \] T2 Price rules \(pending\) after T1$/m);
      expect(shown.tasks.map((t: Json) => [t.id, t.title, t.description, t.deps])).toEqual([
        ['T1', 'Cart model', '- keep prices in cents', []],
        ['T2', 'Price rules', '', ['T1']],
        ['T3', 'Docs', '', ['T2']],
      ]);
      expect(shown.next_task.id).toBe('T1');
      expect(shown.runnable_tasks.map((t: Json) => t.id)).toEqual(['T1']);
      const early = await b('task', 'start', 'T2', '-w', id);
      expect(early.code).toBe(3);
      expect(early.stderr).toContain('cannot start T2: task T2 waits for T1');
      expect((await b('task', 'done', 'T1', '-w', id)).code).toBe(0);
      const after = (await b('status', '-w', id, '--json')).json<Json>();
      expect([after.next_task.id, after.runnable_tasks.map((t: Json) => t.id)]).toEqual(['T2', ['T2']]);
      // a list said to be in any order: its items side by side
      writeFileSync(plan, 'In any order:\n- header\n- footer\n');
      const free = (await b('create', '--title', 'Fixes', '--plan', plan, '--json')).json<Json>();
      expect(free.workflow.tasks.map((t: Json) => t.deps)).toEqual([[], []]);
      // an issue's checklist, when no plan has a list: a checked item is done before any session
      const checklist = await b(
        'create',
        '--title',
        'Fix login',
        '--issue-description',
        'Login fails.\n- [x] find the cause\n- [ ] fix it\n',
        '--json',
      );
      expect(checklist.code, checklist.stderr).toBe(0);
      const fix = checklist.json<Json>();
      expect(fix.tasks_from).toBe('issue');
      expect(fix.workflow.tasks.map((t: Json) => [t.id, t.status])).toEqual([
        ['T1', 'done'],
        ['T2', 'pending'],
      ]);
      // no list: kept as text, and said so with how to give tasks
      writeFileSync(plan, '# Checkout rewrite\n\nWe rewrite the checkout.\n');
      const prose = await b('create', '--title', 'Prose', '--plan', plan);
      expect(prose.code, prose.stderr).toBe(0);
      expect(prose.stdout).toMatch(/ {3}tasks: none$/m);
      expect(prose.stdout).toMatch(
        /^no task: the plan \S+ has no list .* add tasks with `baton task add "<title>" -w wf-\S+`, or create with --task or --tasks-file$/m,
      );
      // tasks given: the plan is the agent's to read, its list not taken as tasks, and that is said
      writeFileSync(plan, '1. Cart model\n2. Price rules\n');
      const given = await b('create', '--title', 'Given', '--plan', plan, '--task', 'A:Only this', '--json');
      expect(given.code, given.stderr).toBe(0);
      expect(given.json<Json>().workflow.tasks.map((t: Json) => t.id)).toEqual(['A']);
      expect(given.stderr).toContain(
        `baton: the list in the plan ${plan} (2 items) is not read as tasks, since --task gave them; the plan is kept as text`,
      );
      expect(given.stderr).toContain('To make its items the tasks, create without --task');
      // a plan without a list, with tasks given: nothing to say
      writeFileSync(plan, 'We rewrite the checkout.\n');
      const prosePlan = await b('create', '--title', 'Prose too', '--plan', plan, '--task', 'A:Only this');
      expect(prosePlan.stderr).not.toContain('not read as tasks');
      const issue = await b(
        'create',
        '--title',
        'Issue',
        '--issue-description',
        '- [ ] a',
        '--task',
        'A:Only this',
      );
      expect(issue.stderr).toContain(
        'the list in the issue description (1 item) is not read as tasks, since --task',
      );
    });

    it('briefs an issue given without an id by its title (the argument) and text, not led by ": "', async () => {
      const here = makeRepo();
      const b = (...args: string[]) => runCli(args, { cwd: here, env });
      const made = await b('create', 'Fix login', '--issue-description', 'Login fails on Safari.');
      expect(made.code, made.stderr).toBe(0);
      const briefing = (await b('context')).stdout;
      expect(briefing).toMatch(/^### Goal \(the user\u2019s words\)\nFix login\nLogin fails on Safari\.\n/m);
      expect(briefing).not.toMatch(/^: /m);
    });

    it('reports usage errors in one line with exit code 2 and no stack', async () => {
      const r = await baton('create', '--task', 'T1:x');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/needs a title: baton create "Add login" \(or --title/);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
      const twice = await baton('create', 'One', '--title', 'Two');
      expect([twice.code, twice.stderr.trim()]).toEqual([
        2,
        'baton: two titles given ("One" and --title "Two"): give one',
      ]);
      const bad = await baton('record', 'decision', '--type', 'vibes', '--description', 'x', '-w', 'nope');
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toMatch(/--type "vibes" is not one of approach/);
      const status = await baton('list', '--status', 'paused, sleeping');
      expect(status.code).toBe(2);
      expect(status.stderr).toMatch(/--status "sleeping" is not one of pending, in_progress/);
    });
  });

  describe(`baton CLI (${mode}): resume after commits`, () => {
    const env = modeEnv(mode);

    it('lists the commits made since the snapshot where it says HEAD moved, newest first', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      expect((await baton('create', '--title', 'moved on', '--task', 'A:one', '--task', 'B:two')).code).toBe(
        0,
      );
      await baton('task', 'start', 'A');
      await baton('pause', '--reason', 'lunch');
      const paused = await baton('task', 'done', 'A');
      expect(paused.code, paused.stderr).toBe(0);
      const from = gitIn(repo, 'rev-parse', 'HEAD').trim().slice(0, 7);
      for (const subject of ['Add the schema', 'Fix the migration']) {
        writeFileSync(join(repo, `${subject}.txt`), subject);
        gitIn(repo, 'add', '.');
        gitIn(repo, 'commit', '-q', '-m', subject);
      }
      const hash = (rev: string) => gitIn(repo, 'rev-parse', rev).trim().slice(0, 7);
      const r = await baton('resume');
      expect(r.code, r.stderr).toBe(0);
      const moved = [
        `- HEAD moved since the snapshot: ${from} -> ${hash('HEAD')}, 2 commits since (newest first):`,
        `  ${hash('HEAD')} Fix the migration`,
        `  ${hash('HEAD~1')} Add the schema`,
      ].join('\n');
      // said once to the person (the report's Warnings) and once to the agent (the briefing's), not a third time
      expect(r.stdout).toContain(`Warnings:\n${moved}`);
      expect(r.stdout).toContain(`### Warnings\n${moved}`);
      expect(r.stdout.split('HEAD moved since the snapshot').length - 1).toBe(2);
    });
  });

  describe(`baton CLI (${mode}): worktree resolution`, () => {
    const env = modeEnv(mode);

    it('lists the candidates and exits 2 when several incomplete workflows match', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      await baton('create', '--title', 'first', '--task', 'A:one');
      await baton('create', '--title', 'second', '--task', 'B:two');
      const r = await baton('resume', '--json');
      expect(r.code).toBe(2);
      const out = r.json<{ error: { code: string; candidates: { title: string }[] } }>();
      expect(out.error.code).toBe('ambiguous');
      expect(out.error.candidates.map((c) => c.title).sort()).toEqual(['first', 'second']);
    });

    it('lists no cancelled workflow that held nothing unless asked', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      const empty = (await baton('create', '--title', 'opened and left', '--json')).json<Json>().id as string;
      expect((await baton('abandon', '-w', empty)).code).toBe(0);
      await baton('create', '--title', 'the work', '--task', 'A:one');
      const listed = await baton('list', '--here');
      expect(listed.stdout).toContain('the work');
      expect(listed.stdout).not.toContain(empty);
      expect(listed.stdout).toContain(
        '(1 cancelled workflow that held nothing is not shown: baton list --all)',
      );
      expect((await baton('list', '--here', '--json')).json<Json>()).toMatchObject({
        hidden_empty_cancelled: 1,
      });
      expect((await baton('list', '--here', '--all')).stdout).toContain(empty);
      expect((await baton('list', '--here', '--status', 'cancelled')).stdout).toContain(empty);
    });

    it('says what to do instead of resuming a workflow that is running', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      await baton('create', '--title', 'running', '--task', 'A:one');
      await baton('task', 'start', 'A');
      const r = await baton('resume');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(
        /cannot resume: the workflow is in_progress .*it is not stopped: nothing to resume/,
      );
      expect(r.stderr).toContain('`baton context`');
    });

    it('withdraws a pause requested on a running workflow, which then goes on', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      await baton('create', '--title', 'running', '--task', 'A:one', '--task', 'B:two');
      await baton('task', 'start', 'A');
      expect((await baton('pause', '--reason', 'lunch', '--json')).json()).toMatchObject({
        outcome: 'requested',
      });
      const back = await baton('resume');
      expect(back.code, back.stderr).toBe(0);
      expect(back.stdout).toMatch(
        /^pause request withdrawn for wf-\S+ \(reason: lunch\): the workflow goes on\n$/,
      );
      const status = (await baton('status', '--json')).json<Json>();
      expect(status.workflow).toMatchObject({
        status: 'in_progress',
        pause_requested: false,
        session_count: 1,
      });
      // nothing waits any more: resume has nothing to do, and says so as before
      const nothing = await baton('resume');
      expect(nothing.code).not.toBe(0);
      expect(nothing.stderr).toMatch(/it is not stopped: nothing to resume/);
      // A's end is no pause: the workflow goes on to B
      expect((await baton('task', 'done', 'A', '--json')).json()).toMatchObject({
        workflow_status: 'in_progress',
      });
      await baton('task', 'start', 'B');
      expect((await baton('pause', '--json')).json()).toMatchObject({ outcome: 'requested' });
      const json = await baton('resume', '--json');
      expect(json.code, json.stderr).toBe(0);
      expect(json.json()).toEqual({
        outcome: 'pause_withdrawn',
        workflow_id: status.workflow.id,
        status: 'in_progress',
        pause_request: { reason: null, requested_at: expect.any(String) },
        // whose it is: the git identity of this worktree, so the person's own
        owner: 'test@baton.invalid',
        yours: true,
      });
      // a workflow paused is resumed as ever, its outcome named
      expect((await baton('pause', '--force', '--json')).json()).toMatchObject({ outcome: 'paused' });
      expect((await baton('resume', '--json')).json()).toMatchObject({
        outcome: 'resumed',
        session_number: 2,
      });
    });

    it('says that the next agent session continues a workflow the hooks follow, not that it runs', async () => {
      const repo = makeRepo();
      const baton = (args: string[], input?: string) => runCli(args, { cwd: repo, env, input });
      const id = '019e1625-789d-76c0-80ab-3724b5ddb799';
      const hook = (event: string, fields: Record<string, unknown>) =>
        baton(
          ['hook', event, '--agent', 'codex'],
          JSON.stringify({ session_id: id, cwd: repo, hook_event_name: event, ...fields }),
        );
      await hook('SessionStart', { source: 'startup' });
      await hook('UserPromptSubmit', { prompt: 'add a LICENSE file' });
      // the user quit Codex; nothing runs the workflow, and the next Codex session here takes it up
      const r = await baton(['resume']);
      expect(r.code).toBe(3);
      expect(r.stderr).not.toContain('it is running');
      expect(r.stderr).toContain(
        `its agent sessions are followed by hooks: the next Codex session in its worktree ${repo} continues it with its briefing (\`baton context\` prints it); nothing to resume`,
      );
    });

    it('names the latest ended workflow of the worktree when none is active', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      // a user of their own (no `baton init --user` of the machine's): the local CLI reads this repository's files and
      // that user's, and `baton init` did not run here; a server cannot see them
      const user = { HOME: tempDir('baton-user-'), CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined };
      const none = await runCli(['status'], { cwd: repo, env: { ...env, ...user } });
      expect(none.stderr).toMatch(
        mode === 'local'
          ? /no active workflow in \S+; Baton does not follow this repository yet: run `baton init` here/
          : /no active workflow in \S+; after `baton init` \(`baton doctor` says whether it set this repository up\)/,
      );
      await baton('create', '--title', 'shipped', '--task', 'A:one');
      expect((await baton('task', 'done', 'A')).code).toBe(0);
      const r = await baton('status');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/no active workflow in \S+; the latest here, wf-\S+ "shipped", completed at /);
      const id = /baton status -w (\S+)`/.exec(r.stderr)?.[1] ?? '';
      const shown = await baton('status', '-w', id);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('shipped');
      // outside a git repository `baton init` refuses: the hint says what works there
      const plain = await runCli(['status'], { cwd: tempDir('baton-plain-'), env });
      expect(plain.stderr).toMatch(
        /is not a git repository: agent sessions are followed in one \(`git init`, then `baton init`\)/,
      );
      expect(plain.stderr).not.toContain('after `baton init`');
      // a teammate's incomplete workflow in another folder of the same store: `baton list` shows it
      await baton('create', '--title', 'in progress', '--task', 'A:one');
      const other = await runCli(['status'], { cwd: makeRepo(), env });
      expect(other.stderr).toMatch(
        /no active workflow in \S+; .*\(`baton list` shows the incomplete workflows of other folders\)$/m,
      );
    });

    it('checkpoint says when uncommitted changes are not in it, and names them', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      expect((await baton('create', '--title', 'points', '--task', 'A:one')).code).toBe(0);
      const clean = await baton('checkpoint', '--name', 'clean');
      expect(clean.code, clean.stderr).toBe(0);
      expect(clean.stderr).toBe('');
      writeFileSync(join(repo, 'draft.txt'), 'not committed\n');
      const dirty = await baton('checkpoint', '--name', 'dirty');
      expect(dirty.code, dirty.stderr).toBe(0);
      expect(dirty.stdout).toMatch(/^checkpoint cp-02-dirty at [0-9a-f]{7}/);
      expect(dirty.stderr).toBe(
        'baton: warning: uncommitted changes are not in cp-02-dirty, which keeps the commit HEAD is at: draft.txt; commit them and make another checkpoint to keep them\n',
      );
    });

    it('abandon without an id ends nothing: it names the workflow it would end and the command that does', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      const created = await baton(
        'create',
        '--title',
        'Half done',
        '--task',
        'A:one',
        '--task',
        'B:two',
        '--json',
      );
      const id = created.json<{ id: string }>().id;
      expect((await baton('task', 'done', 'A')).code).toBe(0);
      const bare = await baton('abandon');
      expect(bare.code).toBe(2);
      expect(bare.stdout).toBe('');
      expect(bare.stderr).toContain(`${id} "Half done"`);
      expect(bare.stderr).toContain('1/2 done');
      expect(bare.stderr).toContain(`\`baton abandon -w ${id}\``);
      expect(bare.stderr).toContain('`baton pause`');
      const still = (await baton('show', '--json')).json<{ workflow: { status: string } }>();
      expect(still.workflow.status).toBe('in_progress');
      // the command it names ends it, and so does the id as an argument (docs/cli.md)
      const named = await baton('abandon', '-w', id, '--json');
      expect(named.code, named.stderr).toBe(0);
      expect(named.json<{ workflow: { status: string } }>().workflow.status).toBe('cancelled');
      const next = (await baton('create', '--title', 'Next', '--json')).json<{ id: string }>().id;
      const positional = await baton('abandon', next);
      expect(positional.code, positional.stderr).toBe(0);
      expect(positional.stdout).toBe(`abandoned ${next} (cancelled)\n`);
    });

    it('complete: the work is done; the worktree then has no active workflow, and a paused one is refused', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      const id = (await baton('create', '--title', 'Done already', '--task', 'A:one', '--json')).json<{
        id: string;
      }>().id;
      expect((await baton('task', 'start', 'A')).code).toBe(0);
      expect((await baton('pause', '--force')).code).toBe(0);
      const paused = await baton('complete');
      expect(paused.code).toBe(3);
      expect(paused.stderr).toContain(
        'cannot complete the workflow: it is paused; resume it first (`baton resume`), then complete it',
      );
      expect((await baton('resume')).code).toBe(0);
      // a task not done is named, and the workflow is not completed without --force (it is never resumed again)
      const open = await baton('complete', '--reason', 'finished in the last conversation');
      expect(open.code).toBe(3);
      expect(open.stderr).toContain(
        `cannot complete the workflow: 1 task is not done (A "one" (in_progress)); \`baton complete -w ${id} --force\` completes it with it left open, \`baton abandon -w ${id}\` ends work that is not done`,
      );
      expect((await baton('show', '-w', id, '--json')).json<Json>().workflow.status).toBe('in_progress');
      const done = await baton('complete', '--force', '--reason', 'finished in the last conversation');
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toBe(
        `completed ${id} "Done already" (0/1 done), tasks left open: A "one" (in_progress); the next conversation here starts a new workflow\n`,
      );
      // the task is left as it was: nobody did it or skipped it
      const shown = (await baton('show', '-w', id, '--json')).json<Json>();
      expect(shown.workflow.status).toBe('completed');
      expect(shown.workflow.tasks).toMatchObject([{ id: 'A', status: 'in_progress' }]);
      expect((await baton('status')).stderr).toContain('no active workflow in');
      // --json says which tasks were left open (a task done is not)
      const tasks = ['--task', 'A:one', '--task', 'B:two', '--task', 'C:three'];
      const other = (await baton('create', '--title', 'Two left', ...tasks, '--json')).json<Json>()
        .id as string;
      for (const [step, task] of [
        ['start', 'A'],
        ['done', 'A'],
        ['start', 'B'],
      ])
        expect((await baton('task', step!, task!, '-w', other)).code).toBe(0);
      const forced = (await baton('complete', '-w', other, '--force', '--json')).json<Json>();
      expect(forced.workflow.status).toBe('completed');
      expect(forced.left_open).toEqual([
        { id: 'B', title: 'two', status: 'in_progress' },
        { id: 'C', title: 'three', status: 'pending' },
      ]);
    });

    it('works outside git with a clear note in the snapshot', async () => {
      const dir = tempDir('baton-nogit-');
      const baton = (...args: string[]) => runCli(args, { cwd: dir, env });
      const created = await baton('create', '--title', 'plain dir', '--task', 'A:one', '--task', 'B:two:A');
      // said once, where the user looks, with what is lost without git
      expect(created.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^baton: warning: .* is not a git repository: .*checkpoints record no commit/),
      ]);
      expect((await baton('task', 'done', 'A')).code).toBe(0);
      const snaps = (await baton('snapshots', '--json')).json<{ snapshots: { id: string }[] }>();
      const snap = (await baton('snapshot', snaps.snapshots[0]!.id, '--json')).json<{
        git_state: unknown;
        git_note: string;
      }>();
      expect(snap.git_state).toBeNull();
      expect(snap.git_note).toMatch(/not a git repository/);
      // a person reads it in a few lines, with where the rest is
      const id = snaps.snapshots[0]!.id;
      const text = (await runCli(['snapshot', id], { cwd: dir, env })).stdout.trim().split('\n');
      expect(text[0]).toMatch(
        new RegExp(`^snapshot ${id} of wf-\\S+: session 1, trigger task_complete, \\S+$`),
      );
      expect(text).toContain('tasks: 1/2 done (next B)');
      expect(text.find((l) => l.startsWith('git: '))).toMatch(/^git: .* is not a git repository/);
      expect(text).toContain('last test: none recorded');
      expect(text.at(-1)).toBe(
        `more: \`baton details ${id} <category>\` (decisions, errors, reviewer-feedback, git-changes, test-state, history, requests, summaries, tasks), the whole record: \`baton snapshot ${id} --json\``,
      );
    });
  });

  describe(`baton CLI (${mode}): the sessions table`, () => {
    const env = modeEnv(mode);

    it('leaves out the cancelled workflows that held nothing, as `baton list` does: says how many, `--all` shows them', async () => {
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      const opened = async () => {
        const id = (await baton('create', '--title', 'opened and left', '--json')).json<Json>().id as string;
        expect((await baton('abandon', '-w', id)).code).toBe(0);
        return id;
      };
      const first = await opened();
      // nothing else: the line alone, not "no workflows yet"
      expect((await baton('sessions')).stdout.trim()).toBe(
        '(1 cancelled workflow that held nothing is not shown: baton sessions --all)',
      );
      const second = await opened();
      const work = (await baton('create', '--title', 'the work', '--task', 'A:one', '--json')).json<Json>()
        .id as string;
      const table = await baton('sessions');
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toContain(work);
      expect(table.stdout).not.toContain(first);
      expect(table.stdout).not.toContain(second);
      expect(table.stdout.trim().split('\n').at(-1)).toBe(
        '(2 cancelled workflows that held nothing are not shown: baton sessions --all)',
      );
      const json = (await baton('sessions', '--json')).json<Json>();
      expect(json.hidden_empty_cancelled).toBe(2);
      expect(json.sessions.map((r: Json) => r.id)).toEqual([work]);
      expect(json.sessions[0]).toMatchObject({ empty: false });
      // --all: every one, and nothing said hidden
      const all = (await baton('sessions', '--all', '--json')).json<Json>();
      expect(all).not.toHaveProperty('hidden_empty_cancelled');
      expect(all.sessions.map((r: Json) => r.id).sort()).toEqual([first, second, work].sort());
      expect(all.sessions.find((r: Json) => r.id === first)).toMatchObject({
        status: 'cancelled',
        empty: true,
      });
      const allText = (await baton('sessions', '--all')).stdout;
      expect(allText).toContain(first);
      expect(allText).not.toContain('not shown');
      // a cancelled workflow that held work stays in the table
      expect((await baton('abandon', '-w', work)).code).toBe(0);
      const after = (await baton('sessions', '--json')).json<Json>();
      expect(after.sessions).toEqual([expect.objectContaining({ id: work, status: 'cancelled' })]);
      expect(after.hidden_empty_cancelled).toBe(2);
      expect((await baton('sessions', '--help')).stdout).toMatch(/--all\s+also the cancelled workflows/);
    });
  });
}
