import { describe, expect, it } from 'vitest';
import { countTokens } from '../../tokens/count-tokens.js';
import { emptyUsage } from '../schemas/records.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { fitResumeContext } from './fit-budget.js';
import { compileResumeContext, defaultLimits } from './resume-context.js';
import { namingWorkflow, renderResumeContext } from './render-context.js';

/** The agent's last message as a transcript import records it, in session 1. */
const lastMessage = (text: string, timestamp = '2026-01-01T00:00:00.000Z') => ({
  id: 's1',
  timestamp,
  kind: 'last_message' as const,
  text,
  source: 'claude-code' as const,
  session_number: 1,
});

const task = (i: number, status: 'done' | 'pending' | 'in_progress') => ({
  id: `T${i}`,
  title: `task number ${i} with a reasonably descriptive title`,
  description: i === 41 ? 'Implement the login endpoint. '.repeat(80) : '',
  deps: [],
  lane: 0,
  status,
  started_at: null,
  ended_at: null,
  session_number: null,
  note: null,
});

function bigSnapshot(): SessionSnapshot {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    schema_version: 1,
    id: 'snap-1',
    workflow_id: 'wf-1',
    session_number: 3,
    created_at: at,
    trigger: 'exhaustion',
    pause_reason: 'context 86% full',
    through_seq: 500,
    issue: { id: 'ISSUE-7', title: 'Add login', description: 'Users must log in. '.repeat(300) },
    plan: '',
    tasks: [
      ...Array.from({ length: 40 }, (_, i) => task(i + 1, 'done')),
      task(41, 'pending'),
      task(42, 'pending'),
    ],
    current_task_id: null,
    next_task_id: 'T41',
    tasks_completed: 40,
    tasks_remaining: 2,
    git_state: null,
    git_note: 'not a git repository',
    decisions: Array.from({ length: 10 }, (_, i) => ({
      id: `d${i}`,
      timestamp: at,
      task_id: null,
      decision_type: 'approach' as const,
      description: `decision ${i}: use the repository pattern for the persistence layer of module ${i}`,
      rationale: 'keeps the domain free of I/O and makes the tests fast '.repeat(3),
      alternatives_considered: null,
    })),
    decisions_total: 60,
    errors: [
      ...Array.from({ length: 4 }, (_, i) => ({
        id: `u${i}`,
        timestamp: at,
        task_id: null,
        error_type: 'TypeError',
        error_message: `unresolved failure ${i}: cannot read properties of undefined`,
        context: null,
        resolution: 'unresolved' as const,
        resolution_notes: null,
      })),
      ...Array.from({ length: 10 }, (_, i) => ({
        id: `r${i}`,
        timestamp: at,
        task_id: null,
        error_type: 'Error',
        error_message: `resolved failure ${i}: ${'stack frame '.repeat(20)}`,
        context: null,
        resolution: 'fixed' as const,
        resolution_notes: null,
      })),
    ],
    errors_total: 30,
    reviewer_feedback: [
      {
        review_id: 'rev1',
        reviewer_persona: 'security reviewer',
        timestamp: at,
        approved: false,
        severity: 'high',
        comments: Array.from(
          { length: 12 },
          (_, i) => `comment ${i}: ${'please validate the input '.repeat(4)}`,
        ),
        addressed: false,
      },
    ],
    test_state: {
      phase: 'red',
      failing_tests: Array.from({ length: 30 }, (_, i) => `auth.spec.ts > case ${i}`),
      expected_failures: ['auth.spec.ts > case 0'],
      last_test_run_at: at,
      last_test_command: 'npm test',
      last_test_output_summary: null,
    },
    usage: emptyUsage(),
    recent_history: [],
    requests: [],
    side_effects: [
      {
        id: 'se1',
        timestamp: at,
        task_id: 'T40',
        kind: 'push',
        tool: 'Bash',
        summary: 'git push origin feature/login',
      },
      {
        id: 'se2',
        timestamp: at,
        task_id: 'T40',
        kind: 'migration',
        tool: 'Bash',
        summary: 'npm run migrate',
      },
    ],
    summaries: { compaction: null, last_message: null },
    warnings: [],
  };
}

describe('resume context within a token budget', () => {
  it('shows everything when the budget allows', () => {
    const fitted = fitResumeContext(bigSnapshot(), 4, [], 100_000, countTokens);
    expect(fitted.over_budget).toBe(false);
    expect(fitted.context.completed_tasks).toHaveLength(40);
    expect(fitted.context.errors_resolved).toHaveLength(10);
  });

  it('says how many of the finished tasks were skipped, not done', () => {
    const snap = bigSnapshot();
    const skipped = {
      ...snap,
      tasks: snap.tasks.map((t, i) => (i < 3 ? { ...t, status: 'skipped' as const } : t)),
    };
    expect(fitResumeContext(skipped, 4, [], 100_000, countTokens).markdown).toContain(
      '### Plan Status: 37/42 tasks done, 3 skipped',
    );
    expect(fitResumeContext(snap, 4, [], 100_000, countTokens).markdown).toMatch(
      /### Plan Status: 40\/42 tasks done$/m,
    );
    // all skipped for one reason (the agent removed them from its list): said once, so none reads as given up
    const removed = "removed from Claude Code's task list";
    const dropped = {
      ...snap,
      tasks: snap.tasks.map((t, i) => (i < 3 ? { ...t, status: 'skipped' as const, note: removed } : t)),
    };
    expect(fitResumeContext(dropped, 4, [], 100_000, countTokens).markdown).toContain(
      `### Plan Status: 37/42 tasks done, 3 skipped (${removed})`,
    );
    // for different reasons: each task's own
    const mixed = {
      ...dropped,
      tasks: dropped.tasks.map((t, i) => (i === 0 ? { ...t, note: 'not needed' } : t)),
    };
    expect(fitResumeContext(mixed, 4, [], 100_000, countTokens).markdown).toMatch(
      /### Plan Status: 37\/42 tasks done, 3 skipped$/m,
    );
  });

  it('names the work done before the tasks skipped when it cannot name every finished task', () => {
    const snap = bigSnapshot();
    // the newest finished tasks skipped (a plan replaced), the older ones done
    const skipped = {
      ...snap,
      tasks: snap.tasks.map((t, i) => (i >= 30 && i < 40 ? { ...t, status: 'skipped' as const } : t)),
    };
    const fitted = fitResumeContext(skipped, 4, [], 780, countTokens);
    const c = fitted.context;
    // some done tasks counted too, beside the skipped ones
    expect(c.completed_more).toBeGreaterThan(c.skipped_more);
    const done = c.completed_tasks.filter((t) => t.status === 'done').length;
    expect(done).toBe(Math.min(30, c.completed_tasks.length));
    expect(c.skipped_more).toBe(10 - (c.completed_tasks.length - done));
    expect(fitted.markdown).toContain(
      `... ${c.completed_more} more finished tasks: ${c.completed_more - c.skipped_more} done, ${c.skipped_more} skipped (baton status)`,
    );
    // in the list's order
    const ids = c.completed_tasks.map((t) => Number(t.id.slice(1)));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('names its workflow in every hint for more, for a briefing of another workflow', () => {
    const md = fitResumeContext(bigSnapshot(), 4, [], 900, countTokens).markdown;
    // the hints of a category alone (the footer names its snapshot)
    const hints = md.match(/baton details (?!snap-)[a-z-]+/g) ?? [];
    expect(hints.length).toBeGreaterThan(1);
    const named = namingWorkflow(md, 'wf-old');
    expect(named.match(/baton details [a-z-]+ -w wf-old/g)).toHaveLength(hints.length);
  });

  it('shrinks lower-priority parts first and keeps what must never be dropped', () => {
    const snap = bigSnapshot();
    for (const budget of [3000, 1500, 900]) {
      const fitted = fitResumeContext(snap, 4, [], budget, countTokens);
      expect(fitted.over_budget, fitted.markdown).toBe(false);
      expect(fitted.tokens).toBeLessThanOrEqual(budget);
      expect(fitted.tokens).toBe(countTokens(fitted.markdown));
      const md = fitted.markdown;
      expect(md).toContain('Continue from task "T41');
      for (let i = 0; i < 4; i++) expect(md).toContain(`UNRESOLVED: TypeError: unresolved failure ${i}`);
      // every task keeps its line and its status, however short its title gets
      const done = fitted.context.completed_tasks.length;
      if (done < 40) expect(md).toContain(`... ${40 - done} earlier completed tasks (baton status)`);
      for (let i = 41 - done; i <= 40; i++) expect(md).toMatch(new RegExp(`\\[x\\] T${i} task`));
      expect(md).toMatch(/\[ \] T41 task/);
      expect(md).toMatch(/\[ \] T42 task/);
      expect(md).toContain('context 86% full');
      expect(md).toContain('- Phase: red');
      // the TDD section: unexpected failures first, the expected one named, the counts agreeing
      expect(md).toContain('- Failing tests: 30');
      expect(md).toMatch(/unexpected \(not the red phase\): auth\.spec\.ts > case 1\b/);
      expect(md).toContain('expected (red phase): auth.spec.ts > case 0');
      expect(md).not.toContain('Failing tests: none');
      expect(md).toMatch(/\.\.\. and \d+ more \(baton details errors\)/);
      expect(md).toContain('### Already Done (do not redo)');
      // the push goes into a count only after the completed tasks began to (it is cut before them)
      if (done === 40) expect(md).toContain('- git push origin feature/login');
      else expect(md).toMatch(/- (git push origin feature\/login|1 more push or pull request)/);
      // the retrieval footer is no part of it: each surface adds its own (retrieval-footer.ts), outside the hash
      expect(md).not.toContain('baton details snap-1');
    }
    const tight = fitResumeContext(snap, 4, [], 900, countTokens);
    expect(tight.context.decisions.length).toBe(0);
    expect(tight.context.completed_tasks.length).toBeLessThan(40);
    expect(tight.markdown).toContain('### Key Decisions Made: 60 (baton details decisions)');
  });

  it("keeps the user's latest request over long task titles, and counts the requests the snapshot no longer holds", () => {
    const snap = bigSnapshot();
    const at = '2026-01-01T00:00:00.000Z';
    // 32 requests: the first is the issue, the state kept the last 10
    const requests = Array.from({ length: 10 }, (_, i) => ({
      id: `r${23 + i}`,
      timestamp: at,
      at,
      session_number: 1,
      source: null,
      text: `request ${23 + i}: ${'please also handle the refresh tokens and the session expiry '.repeat(8)}`,
    }));
    const first = { id: 'r1', title: 'Add login', description: 'Add login. Users must log in.' };
    for (const budget of [100_000, 1500, 900]) {
      const fitted = fitResumeContext(
        { ...snap, issue: first, requests, requests_more: 22 },
        4,
        [],
        budget,
        countTokens,
      );
      expect(fitted.over_budget, fitted.markdown).toBe(false);
      const g = fitted.context.goal;
      expect(g.requests.at(-1)?.text, `at ${budget}`).toMatch(/^request 32: please/);
      // 31 later requests in all (the first is the issue): those not shown are counted
      expect(g.requests.length + g.requests_more, `at ${budget}`).toBe(31);
      if (g.requests_more)
        expect(fitted.markdown).toContain(`(${g.requests_more} more: baton details requests)`);
    }
  });

  it("keeps the agent's reply to the latest request over the request's length: the reply is what came of it", () => {
    const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + s * 1000).toISOString();
    const base = {
      ...bigSnapshot(),
      trigger: 'manual' as const,
      pause_reason: null,
      issue: { id: 'r1', title: 'Review', description: 'Review the lineage feature against its spec.' },
      tasks: [],
      tasks_completed: 0,
      tasks_remaining: 0,
      next_task_id: null,
      decisions: [],
      decisions_total: 0,
    };
    const request = {
      id: 'r2',
      timestamp: at(60),
      at: at(60),
      session_number: 1,
      source: null,
      text: `<task>Re-review the six findings. ${'Verify that each finding names its file, its line and its failure path. '.repeat(20)}</task>`,
    };
    const reply = `## P2: git-root timeouts are treated as non-git sessions\n${'- The caller returns before the warning path, so a timeout is silent. '.repeat(25)}`;
    const fitted = (replyAt: number) =>
      fitResumeContext(
        {
          ...base,
          requests: [request],
          summaries: { compaction: null, last_message: lastMessage(reply, at(replyAt)) },
        },
        1,
        [],
        900,
        countTokens,
      );
    // the reply came after the request and ended the turn: the request gives way first
    const answered = fitted(120);
    expect(answered.over_budget, answered.markdown).toBe(false);
    expect(answered.context.next.answered).toBe(true);
    expect(answered.context.last_state?.text.length).toBeGreaterThan(400);
    expect(answered.context.goal.requests.at(-1)?.text.length).toBeLessThanOrEqual(620);
    // the request came after the agent's last message: it says what to do next and keeps its length longer
    const asked = fitted(30);
    expect(asked.over_budget, asked.markdown).toBe(false);
    expect(asked.context.next.answered).toBe(false);
    expect(asked.context.goal.requests.at(-1)?.text.length).toBeGreaterThan(620);
    expect(asked.context.last_state?.text.length ?? 0).toBeLessThanOrEqual(400);
  });

  it('lists as later requests only those said after the issue: a question before the task is none', () => {
    const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + s * 1000).toISOString();
    const said = (id: string, s: number, text: string) => ({
      id,
      timestamp: at(s),
      at: at(s),
      session_number: 1,
      source: null,
      text,
    });
    const task = 'update the default context compaction to 90 in the env var';
    const snap = {
      ...bigSnapshot(),
      issue: { id: 'r2', title: task, description: task },
      requests: [said('r1', 0, 'show tools'), said('r2', 60, task)],
      requests_more: 3,
    };
    const g = fitResumeContext(snap, 4, [], 100_000, countTokens).context.goal;
    expect(g.requests).toEqual([]);
    expect(g.requests_more).toBe(0);
    const later = { ...snap, requests: [...snap.requests, said('r3', 120, 'also add it to the README')] };
    expect(
      fitResumeContext(later, 4, [], 100_000, countTokens).context.goal.requests.map((r) => r.text),
    ).toEqual(['also add it to the README']);
  });

  it('leaves go-aheads out of the later requests: they answer the agent, they ask for nothing of the goal', () => {
    const snap = bigSnapshot();
    const request = (id: string, text: string, at: string) => ({
      id,
      timestamp: at,
      at,
      session_number: 1,
      source: null,
      text,
    });
    const requests = [
      request('r2', 'Also cover the refresh tokens', '2026-01-01T01:00:00.000Z'),
      request('r3', 'continue where you left off', '2026-01-01T02:00:00.000Z'),
      request('r4', 'ok go on', '2099-01-01T02:00:00.000Z'),
    ];
    // the task list last changed before the go-ahead
    const tasks = snap.tasks.map((t, i) => (i === 0 ? { ...t, ended_at: '2026-01-01T03:00:00.000Z' } : t));
    const fitted = fitResumeContext({ ...snap, tasks, requests }, 4, [], 100_000, countTokens);
    expect(fitted.context.goal.requests.map((r) => r.text)).toEqual(['Also cover the refresh tokens']);
    const asked = fitResumeContext(
      {
        ...snap,
        tasks,
        requests: [...requests, request('r5', 'now add a licence', '2099-01-01T03:00:00.000Z')],
      },
      4,
      [],
      100_000,
      countTokens,
    );
    expect(asked.markdown).toContain(
      'the latest request (the last of the Later requests, under Goal), newer than the task list',
    );
    expect(asked.markdown).toMatch(/Later requests:\n(?: {2}- .+\n)* {2}- "now add a licence"\n/);
    // nor is a go-ahead said after the task list changed the request to do first
    expect(fitted.markdown).not.toContain('newer than the task list');
  });

  it('keeps a request only a few characters over its room whole: the cut would save a token and lose its words', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const request = (id: string, text: string) => ({
      id,
      timestamp: at,
      at,
      session_number: 1,
      source: null,
      text,
    });
    const latest = 'address pr feedback and failing pr checks if any';
    const long = 'now go through every failing check of the pull request and fix each of them in turn';
    const snap = { ...bigSnapshot(), requests: [request('r2', long), request('r3', latest)] };
    const tight = { ...defaultLimits, request_chars: 40, latest_request_chars: 0 };
    const goal = compileResumeContext(snap, 4, [], tight).goal;
    expect(goal.requests[1]?.text).toBe(latest);
    // one well over its room is cut as before
    expect(goal.requests[0]?.text).toBe('now go through every failing … in turn');
    // the issue alike
    const issue = {
      id: 'r1',
      title: 'Add login',
      description: `Add a login page with a password. ${'x'.repeat(8)}`,
    };
    const said = compileResumeContext({ ...snap, issue }, 4, [], { ...tight, issue_chars: 40 }).goal.issue;
    expect(said?.description).toBe(issue.description);
  });

  it('keeps both ends of a long first request: the ask after a pasted brief, and its first line', () => {
    const brief =
      'TEMPORAL AI CHALLENGE\n\n' + 'The real world speaks in signals: vitals, sensors, grids. '.repeat(40);
    const ask = 'now build a pipeline that finds a dataset on its own, not from the listed corpus.';
    const text = `${brief}\n${ask}`;
    const issue = { id: 'r1', title: 'TEMPORAL AI CHALLENGE', description: text };
    for (const budget of [100_000, 1500, 400]) {
      const fitted = fitResumeContext({ ...bigSnapshot(), issue }, 4, [], budget, countTokens);
      const said = fitted.context.goal.issue?.description ?? '';
      expect(said.startsWith('TEMPORAL AI CHALLENGE'), `at ${budget}`).toBe(true);
      expect(said.endsWith('not from the listed corpus.'), `at ${budget}`).toBe(true);
      expect(fitted.markdown, `at ${budget}`).toContain('The user asked: TEMPORAL AI CHALLENGE');
    }
  });

  it('leaves no code block of a long issue open: the sections after the Goal are not read as code', () => {
    const code = Array.from(
      { length: 200 },
      (_, i) => `    assert parse("case ${i}") == expected[${i}]`,
    ).join('\n');
    const text = `Make the parser pass these cases:\n\n\`\`\`python\n${code}\n\`\`\`\n\nCommit when green.`;
    const issue = { id: 'r1', title: 'Make the parser pass', description: text };
    for (const budget of [100_000, 1500, 800, 400]) {
      const fitted = fitResumeContext({ ...bigSnapshot(), issue }, 4, [], budget, countTokens);
      const fences = fitted.markdown.match(/^[ \t]*```/gm)?.length ?? 0;
      expect(fences % 2, `at ${budget}`).toBe(0);
      const goal = fitted.markdown.slice(
        fitted.markdown.indexOf('### Goal'),
        fitted.markdown.indexOf('### Plan'),
      );
      expect((goal.match(/^[ \t]*```/gm)?.length ?? 0) % 2, `at ${budget}: ${goal}`).toBe(0);
    }
  });

  it('keeps the question after a log pasted into a later request, in the latest and in older ones', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const log =
      'FAIL src/auth.test.ts > refresh > rotates the token\nAssertionError: expected 401 to be 200\n'.repeat(
        60,
      );
    const request = (n: number) => ({
      id: `r${n}`,
      timestamp: at,
      at,
      session_number: 1,
      source: null,
      text: `CI says:\n${log}can you fix request ${n} without touching the login page?`,
    });
    const issue = { id: 'r1', title: 'Add login', description: 'Add login. Users must log in.' };
    for (const budget of [100_000, 1500]) {
      const snap = { ...bigSnapshot(), issue, requests: [request(2), request(3)] };
      const fitted = fitResumeContext(snap, 4, [], budget, countTokens);
      const shown = fitted.context.goal.requests.map((r) => r.text);
      // short of room the older one goes; the latest stays
      expect(shown.length, `at ${budget}`).toBe(budget > 1500 ? 2 : 1);
      shown.forEach((said, i) => {
        const n = i + 4 - shown.length;
        expect(said.startsWith('CI says: FAIL src/auth.test.ts'), `at ${budget}: ${said}`).toBe(true);
        expect(
          said.endsWith(`can you fix request ${n} without touching the login page?`),
          `at ${budget}`,
        ).toBe(true);
      });
    }
  });

  it('keeps a comment posted (a side effect others see) after the files changed went into a count', () => {
    const snap = bigSnapshot();
    const at = snap.side_effects?.[0]?.timestamp ?? '';
    const effect = (id: string, kind: 'file_write' | 'other', summary: string) => ({
      id,
      timestamp: at,
      task_id: null,
      kind,
      tool: 'Bash',
      summary,
    });
    const files = Array.from({ length: 30 }, (_, i) => effect(`f${i}`, 'file_write', `edited src/m${i}.ts`));
    const posted = effect(
      'c1',
      'other',
      'commented on issue #1074 (https://github.com/acme/app/issues/1074)',
    );
    const fitted = fitResumeContext(
      { ...snap, side_effects: [...(snap.side_effects ?? []), ...files, posted] },
      4,
      [],
      1500,
      countTokens,
    );
    expect(fitted.over_budget).toBe(false);
    expect(fitted.context.already_done.files).toEqual([]);
    expect(fitted.markdown).toContain('commented on issue #1074');
    expect(fitted.markdown).not.toContain('more side effects');
  });

  it('when even the task list is a count, pushes and pull requests become one too, the newest kept', () => {
    const snap = bigSnapshot();
    const at = snap.side_effects?.[0]?.timestamp ?? '';
    const prs = Array.from({ length: 40 }, (_, i) => ({
      id: `pr${i}`,
      timestamp: at,
      task_id: null,
      kind: 'pr' as const,
      tool: 'Bash',
      summary: `https://github.com/acme/app/pull/${1000 + i}`,
    }));
    const fitted = fitResumeContext(
      { ...snap, side_effects: [...(snap.side_effects ?? []), ...prs] },
      4,
      [],
      900,
      countTokens,
    );
    expect(fitted.over_budget, fitted.markdown).toBe(false);
    expect(fitted.tokens).toBeLessThanOrEqual(900);
    const d = fitted.context.already_done;
    expect(d.pushes.length + d.pull_requests.length + d.pushes_prs_more).toBe(41);
    expect(d.pushes_prs_more).toBeGreaterThan(0);
    expect(fitted.markdown).toContain(`- ${d.pushes_prs_more} more pushes and pull requests`);
    if (d.pull_requests.length) expect(d.pull_requests.at(-1)).toBe('https://github.com/acme/app/pull/1039');
  });

  it('lists a branch pushed again once, where its last push (a force push after an amend) left it', () => {
    const snap = bigSnapshot();
    const at = snap.side_effects?.[0]?.timestamp ?? '';
    const push = (id: string, summary: string) => ({
      id,
      timestamp: at,
      task_id: null,
      kind: 'push' as const,
      tool: 'Bash',
      summary,
    });
    const fitted = fitResumeContext(
      {
        ...snap,
        side_effects: [
          push('p1', 'pushed fix -> fix (up to 00fb9c4)'),
          push('p2', 'pushed main -> main (up to 1111111)'),
          push('p3', 'force-pushed fix -> fix (283c50a, replacing 00fb9c4)'),
        ],
      },
      4,
      [],
      100_000,
      countTokens,
    );
    expect(fitted.context.already_done.pushes).toEqual([
      'pushed main -> main (up to 1111111)',
      'force-pushed fix -> fix (283c50a, replacing 00fb9c4)',
    ]);
    expect(fitted.markdown).toContain(
      '  - pushed main (up to 1111111)\n  - force-pushed fix (283c50a, replacing 00fb9c4)\n',
    );
    expect(fitted.markdown).not.toContain('more pushes');
  });

  it("gives the earlier work's list of what it left done up with the pushes and pull requests, its commits first", () => {
    const done = [
      'pull request https://github.com/acme/app/pull/7',
      'pushed feature/export',
      ...Array.from(
        { length: 6 },
        (_, i) => `commit ${1111111 * (i + 1)} Add the export step number ${i + 1} of six`,
      ),
    ];
    const workflow = {
      worktree: '/repo',
      status: 'in_progress' as const,
      earlier: { workflow_id: 'wf-1', title: 'add a --json flag', done },
    };
    const snap = { ...bigSnapshot(), side_effects: [] };
    const roomy = fitResumeContext(snap, 4, [], 100_000, countTokens, 0, workflow);
    expect(roomy.context.goal.earlier?.done).toEqual(done);
    // the largest budget at which the list is cut (to ten tokens, searched by halving): everything before it in the
    // order gave way, and it fits
    const fit = (budget: number) => fitResumeContext(snap, 4, [], budget, countTokens, 0, workflow);
    const cut = (f: typeof roomy) => (f.context.goal.earlier?.done.length ?? 0) < done.length;
    let [low, high] = [100, roomy.tokens];
    expect(cut(fit(low))).toBe(true);
    while (high - low > 10) {
      const mid = Math.floor((low + high) / 2);
      if (cut(fit(mid))) low = mid;
      else high = mid;
    }
    const fitted = fit(low);
    expect(fitted.over_budget, fitted.markdown).toBe(false);
    const shown = fitted.context.goal.earlier?.done ?? [];
    expect(shown.length).toBeLessThan(done.length);
    expect(shown).toEqual(done.slice(0, shown.length));
    expect(fitted.markdown).not.toContain(done[7]);
  });

  it('counts what the TDD section shows against what it says', () => {
    for (const budget of [100_000, 1500, 900]) {
      const t = fitResumeContext(bigSnapshot(), 4, [], budget, countTokens).context.test_state;
      expect(t).not.toBeNull();
      if (!t) continue;
      expect(
        t.unexpected.length + t.expected.length + t.failing_more + t.failing_unnamed,
        `at ${budget}`,
      ).toBe(t.failing_total);
      expect(t.unexpected[0]).toBe('auth.spec.ts > case 1');
    }
  });

  it("counts the runner's failures when its output read names fewer (a long run's middle cut)", () => {
    const snap = bigSnapshot();
    const test_state = {
      ...snap.test_state!,
      failing_tests: ['test mount renders the page (AppWeb.PageLiveTest)'],
      expected_failures: [],
      last_test_output_summary: '1 passed, 4 failed',
      passed: 1,
      failed: 4,
    };
    const md = fitResumeContext({ ...snap, test_state }, 4, [], 100_000, countTokens).markdown;
    expect(md).toContain('-> 1 passed, 4 failed\n- Failing tests: 4\n');
    expect(md).toContain('  - test mount renders the page (AppWeb.PageLiveTest)\n');
    expect(md).toContain('  - 3 not named in the output Baton read\n');
  });

  it('keeps where an imported session was recorded as long as Git State shows this worktree: else they read as one', () => {
    const git_state = {
      branch: 'main',
      commit_at_workflow_start: 'a1b2c3d4e5f6a7b8',
      commit_at_snapshot: 'e4f5a6b7c8d9e0f1',
      files_modified: [],
      files_staged: [],
      has_uncommitted_changes: false,
      uncommitted_summary: null,
    };
    const workflow = {
      worktree: '/home/u/app',
      status: 'in_progress' as const,
      recorded: { cwd: '/Users/bob/shop', branch: 'feat/codex-agent', elsewhere: true },
    };
    const tight = fitResumeContext({ ...bigSnapshot(), git_state }, 4, [], 1000, countTokens, 0, workflow);
    expect(tight.over_budget).toBe(false);
    // the decisions went, and the last state's length: the line that says the branch below is not the session's stays
    expect(tight.context.decisions).toHaveLength(0);
    // said first, so that this worktree's branch below it is not read as the session's
    expect(tight.markdown).toContain(
      "### Git State\n- The session's transcript was recorded in /Users/bob/shop on branch feat/codex-agent, not in this worktree\n- This worktree: branch main at e4f5a6b",
    );
  });

  it('says so, in its text and its JSON, when even the facts it must keep do not fit', () => {
    const fitted = fitResumeContext(bigSnapshot(), 4, [], 200, countTokens);
    expect(fitted.over_budget).toBe(true);
    expect(fitted.context.over_budget).toBe(true);
    // in words meant for the agent: cut, to fit what, and where the whole is
    expect(fitted.markdown).toContain(
      '(briefing cut to fit 200 tokens, and still over them: run `baton context` for the whole)',
    );
    expect(fitted.markdown).not.toContain('over_budget');
    expect(fitted.markdown).toContain('UNRESOLVED: TypeError: unresolved failure 3');
  });

  it('counts the overhead a caller adds (the stamp line) against the budget', () => {
    const alone = fitResumeContext(bigSnapshot(), 4, [], 1500, countTokens);
    const withStamp = fitResumeContext(bigSnapshot(), 4, [], 1500, countTokens, 40);
    expect(withStamp.tokens + 40).toBeLessThanOrEqual(1500);
    expect(withStamp.tokens).toBeLessThanOrEqual(alone.tokens);
  });
});

describe('what to do next', () => {
  const next = (snap: SessionSnapshot) =>
    /### What to Do Next\n(.+)/.exec(fitResumeContext(snap, 4, [], 100_000, countTokens).markdown)?.[1];
  /** A request of the user's, said a minute after `at`. */
  const saidAfter = (at: string, id: string, text: string, session_number = 1) => {
    const later = new Date(Date.parse(at) + 60_000).toISOString();
    return { id, timestamp: later, at: later, session_number, source: null, text };
  };
  /** The agent's last message, said at `at` in session 4, and whether its turn ended on it. */
  const lastSaid = (at: string, text: string, turn_ended: boolean) => ({
    summaries: {
      compaction: null,
      last_message: {
        id: 's1',
        timestamp: at,
        kind: 'last_message' as const,
        text,
        source: 'claude-code',
        session_number: 4,
        turn_ended,
      },
    },
  });

  it('names the runnable task and why the last session ended', () => {
    expect(next(bigSnapshot())).toBe(
      'Continue from task "T41: task number 41 with a reasonably descriptive title". The previous session ended because: exhaustion: context 86% full.',
    );
  });

  it("without tasks, points to the user's latest request, or to the agent's reply to it; with every task done, says so", () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null, next_task_id: null };
    const none = { ...live, tasks: [], tasks_completed: 0, tasks_remaining: 0 };
    expect(next(none)).toBe("No task is recorded: go on from the user's latest request (Goal).");
    // the plan says so too, rather than an empty count of nothing
    const plan = fitResumeContext(none, 4, [], 100_000, countTokens).markdown;
    expect(plan).toContain('### Plan Status: no task recorded\n');
    expect(plan).not.toContain('0/0');
    const said = {
      id: 's1',
      timestamp: live.created_at,
      kind: 'last_message' as const,
      text: 'Pushed the fix; CI is green.',
      source: 'claude-code',
      session_number: 1,
    };
    // the turn ended on the agent's reply to the latest request: whether more is wanted is the user's to say
    expect(next({ ...none, summaries: { compaction: null, last_message: said } })).toBe(
      "No task is recorded, and the agent's last message (Last State) replies to the user's latest request: unless it names work left, ask the user what comes next.",
    );
    // no room for the reply itself: how the turn ended still decides, and the step says the reply is not shown
    const tight = compileResumeContext(
      { ...none, summaries: { compaction: null, last_message: said } },
      4,
      [],
      {
        ...defaultLimits,
        last_state_chars: 0,
      },
    );
    expect(tight.last_state).toMatchObject({ text: '', cut: said.text.length });
    const md = renderResumeContext(tight);
    expect(md).not.toContain('### Last State');
    expect(/### What to Do Next\n(.+)/.exec(md)?.[1]).toBe(
      "No task is recorded, and the agent's last message (not shown: baton details summaries) replies to the user's latest request: unless it names work left, ask the user what comes next.",
    );
    const request = saidAfter(live.created_at, 'r2', 'add a changelog');
    // a later request is the latest: named where the Goal lists it, not as the Goal's own request
    expect(next({ ...none, requests: [request], summaries: { compaction: null, last_message: said } })).toBe(
      "No task is recorded: go on from the user's latest request (the last of the Later requests, under Goal) and the last state.",
    );
    expect(next({ ...live, tasks: [], tasks_completed: 0, tasks_remaining: 0, issue: null })).toBe(
      'No task is recorded.',
    );
    const done = live.tasks.map((t) => ({ ...t, status: 'done' as const }));
    expect(next({ ...live, tasks: done, tasks_completed: 42, tasks_remaining: 0 })).toBe(
      'Every task is done.',
    );
  });

  it('without tasks, says a turn an API error or a usage limit cut off is no reply: the request is to go on', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null, next_task_id: null };
    const none = { ...live, tasks: [], tasks_completed: 0, tasks_remaining: 0 };
    const at = (s: number) => new Date(Date.parse(live.created_at) + s * 1000).toISOString();
    const summary = (kind: 'last_message' | 'api_error' | 'usage_limit', text: string, s: number) => ({
      id: `${kind}-${s}`,
      timestamp: at(s),
      kind,
      text,
      source: 'claude-code',
      session_number: 1,
    });
    const said = summary('last_message', 'The parser is written; now the writer.', 5);
    const cut = (stop: ReturnType<typeof summary>) => ({
      ...none,
      summaries: { compaction: null, last_message: said, [stop.kind]: stop },
    });
    // the agent's words were said on the way: the turn ended on the error, not on them
    const error = summary('api_error', 'API Error: Request timed out', 9);
    expect(next(cut(error))).toBe(
      "No task is recorded, and the agent's turn on the user's latest request (Goal) was cut off (by what: why the previous session ended, said next): go on with that request from where the Last State shows it had got to, first checking what of it already ran. The previous session ended because: the last turn ended on an API error (API Error: Request timed out): the request it was on may not have been carried out; retry it.",
    );
    const full = summary('api_error', 'Prompt is too long', 9);
    expect(next(cut(full))).toMatch(
      /was cut off \(by what: .+\): go on with that request from where.+ The previous session ended because: the agent's context filled up on the last turn/,
    );
    const limit = summary('usage_limit', "You've hit your limit · resets 3pm (UTC)", 9);
    expect(next(cut(limit))).toMatch(
      /^No task is recorded, and the agent's turn on the user's latest request \(Goal\) was cut off \(by what: why the previous session ended, said next\): go on with that request from where the Last State shows it had got to, first checking what of it already ran\. The previous session ended because: stopped by a usage limit of Claude Code, session 1, resets at 3pm \(UTC\)\.$/,
    );
    const json = compileResumeContext(cut(limit), 4);
    expect(json.next).toMatchObject({ answered: false, cut_off: { by: 'usage_limit', said: true } });
    // the user asked again after the agent's last word, and the limit stopped that turn before it said anything
    const asked = saidAfter(at(5), 'r2', 'add a header row');
    const silent = { ...cut(summary('usage_limit', limit.text, 70)), requests: [asked] };
    expect(next(silent)).toMatch(
      /^No task is recorded, and the agent's turn on the user's latest request \(the last of the Later requests, under Goal\) was cut off before it said anything \(by what: why the previous session ended, said next\): go on with that request, first checking what of it already ran\./,
    );
    // the agent said more after the error (a retry went through): that is its reply, and the error is over
    const later = {
      ...cut(error),
      summaries: { ...cut(error).summaries, last_message: { ...said, timestamp: at(20) } },
    };
    expect(next(later)).toBe(
      "No task is recorded, and the agent's last message (Last State) replies to the user's latest request: unless it names work left, ask the user what comes next.",
    );
  });

  it('lists an API failure under no Errors Encountered: the stop of the turn it cut off, then over', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null, next_task_id: null };
    const at = (s: number) => new Date(Date.parse(live.created_at) + s * 1000).toISOString();
    const words =
      'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}';
    const summary = (kind: 'last_message' | 'api_error', text: string, s: number) => ({
      id: `${kind}-${s}`,
      timestamp: at(s),
      kind,
      text,
      source: 'claude-code',
      session_number: 1,
    });
    const failure = {
      id: 'err-api',
      timestamp: at(9),
      task_id: null,
      error_type: 'agent_error',
      error_message: `agent: ${words}`,
      context: 'The parser is written; now the writer.',
      resolution: 'unresolved' as const,
      resolution_notes: null,
    };
    const snap = (said: number, resolution: 'unresolved' | 'fixed' = 'unresolved') => ({
      ...live,
      tasks: [],
      tasks_completed: 0,
      tasks_remaining: 0,
      errors: [{ ...failure, resolution }],
      errors_total: 1,
      summaries: {
        compaction: null,
        last_message: summary('last_message', 'The parser is written; now the writer.', said),
        api_error: summary('api_error', words, 9),
      },
    });
    const errors = (s: SessionSnapshot) =>
      /### Errors Encountered.*(?:\n {2}.*)*/.exec(
        fitResumeContext(s, 4, [], 100_000, countTokens).markdown,
      )?.[0];
    // the turn ended on it: What to Do Next says so, once; it is no unresolved error of the work
    const cut = fitResumeContext(snap(5), 4, [], 100_000, countTokens).markdown;
    expect(cut).not.toContain('UNRESOLVED');
    expect(errors(snap(5))).toBe('### Errors Encountered: none');
    expect(cut.split('500 api_error: Internal server error').length - 1).toBe(1);
    expect(compileResumeContext(snap(5), 4).errors_unresolved).toEqual([]);
    // the agent went on after it (its record not marked fixed yet, or marked): over, neither listed nor counted
    expect(errors(snap(20))).toBe('### Errors Encountered: none');
    expect(errors(snap(20, 'fixed'))).toBe('### Errors Encountered: none');
    // an error of the work beside it is listed as before
    const both = snap(5);
    both.errors.push({
      ...failure,
      id: 'err-work',
      error_type: 'command_failed',
      error_message: '`npm test`: 2 failed',
    });
    both.errors_total = 2;
    expect(errors(both)).toBe(
      '### Errors Encountered\n  ! UNRESOLVED: command_failed: `npm test`: 2 failed (while: The parser is written; now the writer.)',
    );
  });

  it('with every task done, a turn on a newer request that an API error cut off is that request to do first', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const timed = live.tasks.map((t) => ({
      ...t,
      status: 'done' as const,
      ended_at: '2026-01-01T10:00:00.000Z',
      started_at: '2026-01-01T09:00:00.000Z',
    }));
    const request = {
      id: 'r2',
      timestamp: '2026-01-01T11:00:00.000Z',
      at: '2026-01-01T11:00:00.000Z',
      session_number: 1,
      source: null,
      text: 'write the release notes',
    };
    const message = (kind: 'last_message' | 'api_error', text: string, timestamp: string) => ({
      id: kind,
      timestamp,
      kind,
      text,
      source: 'claude-code',
      session_number: 1,
    });
    const snap = {
      ...live,
      tasks: timed,
      next_task_id: null,
      tasks_completed: 42,
      tasks_remaining: 0,
      requests: [request],
      summaries: {
        compaction: null,
        last_message: message('last_message', 'Drafting the notes now.', '2026-01-01T11:05:00.000Z'),
        api_error: message('api_error', 'API Error: Connection error.', '2026-01-01T11:06:00.000Z'),
      },
    };
    // not "replies to it": the turn on it was cut off, so it is still to be done
    expect(next(snap)).toBe(
      'Every task is done; unless done above, go on from the latest request (the last of the Later requests, under Goal), newer than the task list. The previous session ended because: the last turn ended on an API error (API Error: Connection error.): the request it was on may not have been carried out; retry it.',
    );
  });

  it('sends the agent to the Warnings first when there are any: they may change what follows', () => {
    const warned = fitResumeContext(
      bigSnapshot(),
      4,
      ['Another conversation is at work here.'],
      100_000,
      countTokens,
    );
    expect(/### What to Do Next\n(.+)/.exec(warned.markdown)?.[1]).toMatch(
      /^Read the Warnings above: they may change what follows\. Continue from task "T41: /,
    );
  });

  it("tells a new conversation beside another at work to ask the user, and heads the other's last state as its", () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const made = (elsewhere: 'at_work' | 'maybe_at_work', snap: SessionSnapshot = live) =>
      fitResumeContext(snap, 4, [], 100_000, countTokens, 0, {
        worktree: '/w',
        status: 'in_progress',
        elsewhere,
      }).markdown;
    const sure = made('at_work');
    expect(sure).toMatch(/### Warnings\n- Another conversation is at work on this workflow right now/);
    // the next task, not taken up by anyone yet, is not said to be the other's
    expect(/### What to Do Next\n(.+)/.exec(sure)?.[1]).toBe(
      'Another conversation is at work on this workflow (Warnings above): ask the user what this session should do before doing anything.',
    );
    // the task in progress is
    const working = {
      ...live,
      tasks: live.tasks.map((t) => (t.id === 'T41' ? { ...t, status: 'in_progress' as const } : t)),
    };
    expect(/### What to Do Next\n(.+)/.exec(made('at_work', working))?.[1]).toBe(
      'Another conversation is at work on this workflow (Warnings above): ask the user what this session should do before doing anything; task "T41: task number 41 with a reasonably descriptive title" is that conversation\'s.',
    );
    const unsure = made('maybe_at_work');
    expect(unsure).toMatch(
      /### Warnings\n- Another conversation of this worktree wrote its transcript moments ago/,
    );
    expect(/### What to Do Next\n(.+)/.exec(unsure)?.[1]).toMatch(
      /^First ask the user whether the other conversation of this worktree is still open \(Warnings above\); if it is, ask what this session should do; if it is not: Continue from task "T41: /,
    );
    const alone = fitResumeContext(live, 4, [], 100_000, countTokens).markdown;
    expect(alone).not.toMatch(/another conversation/i);
  });

  it('after the user interrupted the last turn, asks them first, whatever the task list says', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const interrupted = {
      id: 's9',
      timestamp: new Date(Date.parse(live.created_at) + 3_600_000).toISOString(),
      kind: 'interrupted' as const,
      text: 'The user interrupted the turn',
      source: 'claude-code',
      session_number: 4,
    };
    expect(next({ ...live, summaries: { compaction: null, last_message: null, interrupted } })).toBe(
      'First ask the user how to go on with the turn they interrupted (Last State); then continue from task "T41: task number 41 with a reasonably descriptive title".',
    );
  });

  it('after a crash, the last message it cut off is mid-turn, unless the user asked more after it', () => {
    const crash = {
      ...bigSnapshot(),
      trigger: 'crash' as const,
      pause_reason: 'stopped in the middle of its turn',
    };
    const done = crash.tasks.map((t) => ({ ...t, status: 'done' as const }));
    const allDone = { ...crash, tasks: done, tasks_completed: 42, tasks_remaining: 0, next_task_id: null };
    const said = lastSaid(crash.created_at, 'Found it: a deterministic key.', true);
    expect(next({ ...allDone, ...said })).toBe(
      "Every task is done, but the session ended in the middle of the agent's turn: finish what the Last State says it was doing (check whether its last call ran). The previous session ended because: crash: stopped in the middle of its turn.",
    );
    // not a crash: the turn ended on it
    expect(next({ ...allDone, trigger: 'manual' as const, ...said })).toBe('Every task is done.');
  });

  it('after a turn that ended waiting on a command left in the background, says to see how it ended first', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const waiting = lastSaid(
      live.created_at,
      'PR #234 CI is running. Once it passes I will merge it and archive the release loop.\n\nLeft running in the background, not seen to end when the transcript ends: `Bash: sleep 120 && gh pr checks 234`',
      true,
    );
    const none = { ...live, tasks: [], tasks_completed: 0, tasks_remaining: 0, next_task_id: null };
    expect(next({ ...none, ...waiting })).toBe(
      'The agent was waiting on a background command (Last State): see how it ended (run it or its check again if its output is gone), then go on as its last message says.',
    );
    expect(next({ ...live, ...waiting })).toBe(
      'The agent was waiting on a background command (Last State): see how it ended (run it or its check again if its output is gone), then go on as its last message says, then continue from task "T41: task number 41 with a reasonably descriptive title".',
    );
    // the user spoke since: what they said comes first, not the wait
    const asked = saidAfter(live.created_at, 'r9', 'never mind the PR, fix the docs', 4);
    expect(next({ ...none, ...waiting, requests: [...none.requests, asked] })).not.toContain('waiting');
  });

  it('after a turn that ended waiting on sub-agents that had not answered, says to get their answers first', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const none = { ...live, tasks: [], tasks_completed: 0, tasks_remaining: 0, next_task_id: null };
    const review = lastSaid(
      live.created_at,
      'The design review agent is at work; I wait for its findings.\n\nSub-agents it started had not answered when the transcript ends: design-review',
      true,
    );
    expect(next({ ...none, ...review })).toBe(
      'The agent was waiting on sub-agents it started that had not answered (Last State): get their answers (wait for them, or ask again if they are gone), then go on as its last message says.',
    );
    const both = lastSaid(
      live.created_at,
      'CI runs and the review agent is at work.\n\nSub-agents it started had not answered when the transcript ends: design-review\nLeft running in the background, not seen to end when the transcript ends: `Bash: gh pr checks 7 --watch`',
      true,
    );
    expect(next({ ...live, ...both })).toBe(
      'The agent was waiting on a background command and sub-agents it started that had not answered (Last State): get their answers (wait for them, or ask again if they are gone; see how the command ended, running it or its check again if its output is gone), then go on as its last message says, then continue from task "T41: task number 41 with a reasonably descriptive title".',
    );
    // the user spoke since: what they said comes first, not the wait
    const asked = saidAfter(live.created_at, 'r9', 'skip the review, just merge', 4);
    expect(next({ ...none, ...review, requests: [...none.requests, asked] })).not.toContain('waiting');
  });

  it('after a last message that asks the user, says to get their answer; after one cut mid-turn, to finish it', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const said = (text: string, turn_ended: boolean) => lastSaid(live.created_at, text, turn_ended);
    const question = said('Tests pass.\n\nShould I push the branch, or keep it local for now?', true);
    expect(next({ ...live, ...question })).toBe(
      'The agent\'s last message ended waiting on the user\'s answer (Last State): get their answer first, then continue from task "T41: task number 41 with a reasonably descriptive title".',
    );
    const done = { ...live, tasks: live.tasks.map((t) => ({ ...t, status: 'done' as const })) };
    const allDone = { ...done, tasks_completed: 42, tasks_remaining: 0, next_task_id: null };
    expect(next({ ...allDone, ...question })).toBe(
      "Every task is done, but the agent's last message ended waiting on the user's answer (Last State): get their answer before doing more.",
    );
    const none = { ...live, tasks: [], tasks_completed: 0, tasks_remaining: 0, next_task_id: null };
    expect(
      next({ ...none, ...said('Which option do you prefer?\n- **A**: a flag\n- **B**: a config key', true) }),
    ).toBe(
      "The agent's last message ended waiting on the user's answer (Last State): get their answer, then go on from it and the user's latest request (Goal).",
    );
    // no request of the user's recorded (a `claude -p` stream does not carry its prompt): none is pointed at
    expect(next({ ...none, issue: null, requests: [], ...said('Would you like me to proceed?', true) })).toBe(
      "The agent's last message ended waiting on the user's answer (Last State): get their answer, then go on from it.",
    );
    // answered by a request after it, or said in a run `baton run` drove (no one to ask): no question stands
    const answer = saidAfter(live.created_at, 'r9', 'yes, push it', 4);
    expect(next({ ...allDone, ...question, requests: [...allDone.requests, answer] })).not.toContain(
      'question',
    );
    const unattended = said('Should I push the branch?', true);
    unattended.summaries.last_message.source = 'claude-code:baton run';
    expect(next({ ...allDone, ...unattended })).toBe('Every task is done.');
    // a question the message answers itself, or an offer without one, asks nothing
    expect(
      next({ ...allDone, ...said('Why did it fail? The cache was stale. Fixed and pushed.', true) }),
    ).toBe('Every task is done.');
    // the agent went on after its last words: the list is done, what it announced may not be
    expect(next({ ...allDone, ...said('Tests pass. Let me run lint and format.', false) })).toBe(
      "Every task is done, but the session ended in the middle of the agent's turn: finish what the Last State says it was doing (check whether its last call ran).",
    );
    expect(next({ ...none, ...said('I’ll verify the PR is mergeable, then merge it.', false) })).toBe(
      "No task is recorded, and the session ended in the middle of the agent's turn: finish what the Last State says it was doing for the user's latest request (Goal), first checking whether any of it already ran.",
    );
    // a transcript that ends announcing a step was cut before the agent took it; unless a hook saw the turn end there
    const announcing = said('Tests pass. Next, let me run lint and format.', true);
    expect(next({ ...allDone, ...announcing })).toMatch(/ended in the middle of the agent's turn/);
    const stopSeen = new Date(Date.parse(live.created_at) + 1_000).toISOString();
    expect(next({ ...allDone, ...announcing, turn_ended_at: stopSeen })).toBe('Every task is done.');
    // a turn that ended before the message (an earlier Stop) says nothing of this one
    const before = new Date(Date.parse(live.created_at) - 60_000).toISOString();
    expect(next({ ...allDone, ...announcing, turn_ended_at: before })).toMatch(
      /in the middle of the agent's turn/,
    );
  });

  it("after the user's go-ahead to the agent's last message, says to go on with what it proposed", () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const waiting = lastSaid(
      live.created_at,
      'PR #233: CI 12/12 green, review done. Reply "merge approved" and I will merge it and write the retro.',
      true,
    );
    const approved = saidAfter(live.created_at, 'r9', 'approved', 4);
    const none = { ...live, tasks: [], tasks_completed: 0, tasks_remaining: 0, next_task_id: null };
    expect(next({ ...none, ...waiting, requests: [...none.requests, approved] })).toBe(
      'The user answered the agent\'s last message (Last State) with "approved": go on with what it proposed.',
    );
    expect(next({ ...live, ...waiting, requests: [...live.requests, approved] })).toBe(
      'The user answered the agent\'s last message (Last State) with "approved": go on with what it proposed, then continue from task "T41: task number 41 with a reasonably descriptive title".',
    );
    // said before the agent's last message, the go-ahead was to something older: the message answered it
    const before = { ...approved, at: '2000-01-01T00:00:00.000Z', timestamp: '2000-01-01T00:00:00.000Z' };
    expect(next({ ...none, ...waiting, requests: [...none.requests, before] })).not.toContain('approved');
    // the agent went on with it by its list (a task finished after it), cut off before it spoke again: the list leads
    const after = new Date(Date.parse(approved.at) + 60_000).toISOString();
    const finished = live.tasks.map((t) =>
      t.id === 'T40' ? { ...t, status: 'done' as const, started_at: after, ended_at: after } : t,
    );
    expect(next({ ...live, ...waiting, tasks: finished, requests: [...live.requests, approved] })).toBe(
      'Continue from task "T41: task number 41 with a reasonably descriptive title".',
    );
    // without a list, work since it (a commit) may be only part of what it proposed: the go-ahead still leads, and
    // says to check what of it the session did
    const commit = {
      id: 'se-1',
      kind: 'commit' as const,
      tool: 'Bash',
      summary: 'abc1234 Merge PR #233',
      timestamp: after,
      task_id: null,
    };
    expect(
      next({ ...none, ...waiting, side_effects: [commit], requests: [...none.requests, approved] }),
    ).toBe(
      'The user answered the agent\'s last message (Last State) with "approved": go on with what it proposed (1 change was recorded after that answer: check what of it is done first).',
    );
  });

  it('says the task list may be behind when the agent ended its turn on a message newer than the list', () => {
    const live = { ...bigSnapshot(), trigger: 'manual' as const, pause_reason: null };
    const before = new Date(Date.parse(live.created_at) - 60_000).toISOString();
    const moved = live.tasks.map((t) => (t.id === 'T40' ? { ...t, ended_at: before } : t));
    const message = (turn_ended: boolean, timestamp = live.created_at) => ({
      compaction: null,
      last_message: {
        id: 's1',
        timestamp,
        kind: 'last_message' as const,
        text: 'Implemented it. Verification passed: npm test, npm run build.',
        source: 'codex',
        session_number: 4,
        turn_ended,
      },
    });
    const task = 'task "T41: task number 41 with a reasonably descriptive title"';
    expect(next({ ...live, tasks: moved, summaries: message(true) })).toBe(
      `Continue from ${task}, unless the agent's last message (Last State), newer than the task list, says it is done.`,
    );
    // cut mid-turn after it (a Codex plan set once, then hours of work): what it was doing comes first
    expect(next({ ...live, tasks: moved, summaries: message(false) })).toBe(
      `The session ended in the middle of the agent's turn, and its last message (Last State) is newer than the task list: finish what it says it was doing (check whether its last call ran), then continue from ${task} unless that message shows it done.`,
    );
    // said before the list last moved: the list is the newer word
    const older = new Date(Date.parse(before) - 60_000).toISOString();
    expect(next({ ...live, tasks: moved, summaries: message(true, older) })).toBe(`Continue from ${task}.`);
    // a compaction's summary newer than the list (its Last State) may say more of it done, as a last message may
    const compacted = (timestamp: string) => ({
      compaction: {
        id: 's2',
        timestamp,
        kind: 'compaction' as const,
        text: 'T41 is written and its tests pass; remaining: commit it.',
        source: 'claude-code:compact_summary',
        session_number: 4,
      },
      last_message: message(true, older).last_message,
    });
    expect(next({ ...live, tasks: moved, summaries: compacted(live.created_at) })).toBe(
      `Continue from ${task}, unless the compaction's summary (Last State), newer than the task list, says it is done.`,
    );
    expect(next({ ...live, tasks: moved, summaries: compacted(older) })).toBe(`Continue from ${task}.`);
  });

  it("of a finished workflow, is a recap's: headed so, with nothing to go on with nor why a session ended", () => {
    const done = bigSnapshot().tasks.map((t) => ({ ...t, status: 'done' as const }));
    const snap = {
      ...bigSnapshot(),
      tasks: done,
      tasks_completed: 42,
      tasks_remaining: 0,
      next_task_id: null,
    };
    const worktree = '/home/u/app';
    const of = (status: 'completed' | 'cancelled' | 'in_progress') =>
      fitResumeContext(snap, 6, [], 100_000, countTokens, 0, { worktree, status });
    const recap = of('completed');
    expect(recap.context.finished).toBe('completed');
    expect(recap.markdown).toMatch(/^## Recap of a Finished Workflow \(completed, after 6 sessions\)\n/);
    expect(recap.markdown).not.toContain('Session Resume Context');
    expect(/### What to Do Next\n(.+)/.exec(recap.markdown)?.[1]).toBe(
      'Nothing: the workflow is completed; new work goes in a new workflow.',
    );
    expect(/### What to Do Next\n(.+)/.exec(of('cancelled').markdown)?.[1]).toMatch(
      /^Nothing: the workflow was cancelled;/,
    );
    // one at work is briefed to go on
    const live = of('in_progress');
    expect(live.context.finished).toBeNull();
    expect(live.markdown).toMatch(/^## Session Resume Context \(session 6 of 6\)\n/);
    expect(next(snap)).toBe(
      'Every task is done. The previous session ended because: exhaustion: context 86% full.',
    );
  });

  it('of an abandoned workflow, names no task current and says the tasks not done were left open', () => {
    const base = bigSnapshot();
    const tasks = base.tasks.slice(0, 3).map((t, i) => ({
      ...t,
      deps: [],
      status: (['done', 'in_progress', 'pending'] as const)[i]!,
    }));
    const snap = { ...base, tasks, tasks_completed: 1, tasks_remaining: 2, current_task_id: tasks[1]!.id };
    const of = (status: 'cancelled' | 'in_progress') =>
      fitResumeContext(snap, 2, [], 100_000, countTokens, 0, { worktree: '/home/u/app', status }).markdown;
    const plan = (md: string) => /### Plan Status.*\n(?: {2}.*\n)+/.exec(md)?.[0] ?? '';
    const recap = plan(of('cancelled'));
    expect(recap).not.toMatch(/current|in_progress|\[~\]/);
    expect(recap).toContain(`  [ ] ${tasks[1]!.id} ${tasks[1]!.title} (left open)`);
    expect(recap).toContain(`  [ ] ${tasks[2]!.id} ${tasks[2]!.title} (left open)`);
    // one at work still names its task under way
    const live = plan(of('in_progress'));
    expect(live).toContain(`current ${tasks[1]!.id}`);
    expect(live).toContain(`  [~] ${tasks[1]!.id} ${tasks[1]!.title} (in_progress)`);
  });

  it('says a usage limit stopped the last session, with its reset, once; not once the agent said more after it', () => {
    const base = bigSnapshot();
    const summary = (kind: 'last_message' | 'usage_limit', text: string, timestamp: string) => ({
      id: `sum-${timestamp}`,
      timestamp,
      kind,
      text,
      source: 'claude-code',
      session_number: 1,
      ...(kind === 'usage_limit' ? { resets_at: '2026-05-01T13:40:00.000Z' } : {}),
    });
    const notice = "You've hit your session limit · resets 3:40pm (Europe/Paris)";
    const said = summary('last_message', 'Half-way: the parser is done.', '2026-05-01T10:00:05.000Z');
    const stopped = {
      ...base,
      trigger: 'usage_limit' as const,
      pause_reason: 'stopped by a usage limit of Claude Code, resets at 2026-05-01T13:40:00.000Z',
      summaries: {
        compaction: null,
        last_message: said,
        usage_limit: summary('usage_limit', notice, '2026-05-01T10:00:09.000Z'),
      },
    };
    const md = fitResumeContext(stopped, 4, [], 100_000, countTokens).markdown;
    // the task goes on from where the cut-off turn got to, what of it ran checked first
    expect(next(stopped)).toBe(
      'Continue from task "T41: task number 41 with a reasonably descriptive title": the agent\'s turn on the user\'s latest request (Goal) was cut off; first check what of that turn already ran. The previous session ended because: stopped by a usage limit of Claude Code, session 1, resets at 3:40pm (Europe/Paris), which is 2026-05-01 13:40 UTC.',
    );
    // the user said go on since the reset, the agent silent since their request: the task goes on, the limit named
    const resumed = {
      ...stopped,
      summaries: { ...stopped.summaries, last_message: null },
      requests: [
        ...stopped.requests,
        {
          id: 'req-ask',
          text: 'write the parser',
          timestamp: '2026-05-01T09:59:00.000Z',
          at: null,
          session_number: 1,
          source: 'claude-code',
        },
        {
          id: 'req-go',
          text: 'continue',
          timestamp: '2026-05-01T14:00:00.000Z',
          at: null,
          session_number: 1,
          source: 'claude-code',
        },
      ],
    };
    expect(next(resumed)).toMatch(
      /^Continue from task "T41: [^"]+": the agent's turn on the user's latest request \([^)]*\) was cut off by a usage limit before it said anything, and the user said "continue" since; first check what of that turn already ran\./,
    );
    expect(md.match(/usage limit/g)).toHaveLength(1);
    // a briefing made after the reset from the snapshot taken before it (the next morning's session start) says so
    const morning = fitResumeContext(stopped, 4, [], 100_000, countTokens, 0, {
      worktree: '/w',
      status: 'paused',
      now: '2026-05-01T15:00:00.000Z',
    }).markdown;
    expect(morning).toContain(
      'ended because: stopped by a usage limit of Claude Code, session 1, that has reset since (at 3:40pm',
    );
    // a session started after the reset is told the limit is over
    expect(next({ ...stopped, created_at: '2026-05-01T15:00:00.000Z' })).toMatch(
      /ended because: stopped by a usage limit of Claude Code, session 1, that has reset since \(at 3:40pm \(Europe\/Paris\), which is 2026-05-01 13:40 UTC\): Claude Code can go on\.$/,
    );
    expect(md).not.toContain(notice);
    expect(md).toMatch(/### Last State \(the agent's last message, [^)]*\)\nHalf-way: the parser is done\./);
    // the agent said more since: the limit is over, and the snapshot's own reason is said again, alone (it names the
    // limit: not "usage_limit: stopped by a usage limit"); an older log's snapshot of it, a pause's, says its trigger
    const back = summary('last_message', 'The writer is done too.', '2026-05-01T14:00:00.000Z');
    const spoke = { ...stopped, summaries: { ...stopped.summaries, last_message: back } };
    expect(next(spoke)).toMatch(
      /ended because: stopped by a usage limit of Claude Code, resets at 2026-05-01T13:40:00\.000Z\.$/,
    );
    expect(next({ ...spoke, trigger: 'pause' })).toMatch(/ended because: pause: stopped by a usage limit/);
    expect(
      next({
        ...base,
        summaries: { compaction: null, last_message: back, usage_limit: stopped.summaries.usage_limit },
      }),
    ).toMatch(/ended because: exhaustion: context 86% full\.$/);
  });

  it('puts a later request first when it was said after the task list last changed, and only then', () => {
    const base = bigSnapshot();
    const timed = base.tasks.map((t, i) =>
      i < 40 ? { ...t, started_at: '2026-01-01T10:00:00.000Z', ended_at: '2026-01-01T10:30:00.000Z' } : t,
    );
    const request = (id: string, at: string | null, timestamp = '2026-01-02T00:00:00.000Z') => ({
      id,
      timestamp,
      at,
      session_number: 1,
      text: 'stop the login work and write the release notes',
      source: 'claude-code',
    });
    const snap = { ...base, tasks: timed };
    const after = { ...snap, requests: [request('r2', '2026-01-01T11:00:00.000Z')] };
    expect(next(after)).toBe(
      `Unless done above, first do the latest request (the last of the Later requests, under Goal), newer than the task list; then continue from task "T41: task number 41 with a reasonably descriptive title". The previous session ended because: exhaustion: context 86% full.`,
    );
    // said before the last task ended: the tasks already answer it
    expect(next({ ...snap, requests: [request('r2', '2026-01-01T10:10:00.000Z')] })).toMatch(
      /^Continue from/,
    );
    // no transcript time: the time it was recorded
    expect(next({ ...snap, requests: [request('r2', null, '2026-01-01T09:00:00.000Z')] })).toMatch(
      /^Continue/,
    );
    // the issue is what the tasks were made for
    const issue = { id: 'r2', title: 'stop the login work', description: 'stop the login work' };
    expect(next({ ...after, issue })).toMatch(/^Continue from/);
    // no task has a time: nothing to compare with
    expect(next({ ...after, tasks: base.tasks })).toMatch(/^Continue from/);
    // the agent's last message came after it: the last state answers it
    const answer = (timestamp: string) => ({
      id: 's1',
      timestamp,
      kind: 'last_message' as const,
      text: 'The release notes are in docs/RELEASE.md.',
      source: 'claude-code',
      session_number: 1,
    });
    const replied = (t: string) => ({ ...after, summaries: { compaction: null, last_message: answer(t) } });
    expect(next(replied('2026-01-01T11:05:00.000Z'))).toMatch(/^Continue from/);
    expect(next(replied('2026-01-01T10:50:00.000Z'))).toMatch(
      /^Unless done above, first do the latest request/,
    );
    const done = timed.map((t) => ({ ...t, status: 'done' as const }));
    expect(next({ ...after, tasks: done, next_task_id: null, tasks_completed: 42, tasks_remaining: 0 })).toBe(
      `Every task is done; unless done above, go on from the latest request (the last of the Later requests, under Goal), newer than the task list. The previous session ended because: exhaustion: context 86% full.`,
    );
    // the list was done before the request, and the agent's reply to it ended the turn: the reply says what is left
    const finished = { tasks: done, next_task_id: null, tasks_completed: 42, tasks_remaining: 0 };
    expect(next({ ...replied('2026-01-01T11:05:00.000Z'), ...finished })).toBe(
      "Every task is done; the latest request (the last of the Later requests, under Goal) came after them, and the agent's last message (Last State) replies to it: unless it names work left, ask the user what comes next. The previous session ended because: exhaustion: context 86% full.",
    );
    // short of room for why (the request came after the list), it still says what to do (entire-cli e5 at 400 tokens
    // said "Every task is done." alone)
    const noNote = { ...defaultLimits, newer_request_note: 0 };
    const short = compileResumeContext(
      { ...replied('2026-01-01T11:05:00.000Z'), ...finished },
      4,
      [],
      noNote,
    );
    expect(renderResumeContext(short)).toContain(
      '### What to Do Next\nEvery task is done: unless the Last State names work left, ask the user what comes next.',
    );
    const json = fitResumeContext(after, 4, [], 100_000, countTokens).context;
    expect(json.next.latest_request_first).toBe(true);
    expect(json.next.request_after_list).toBe(true);
    // short of room, the note goes before any completed task becomes a count (the Goal still shows the request); it
    // comes back only in room too short for the next finished task
    const budgets = Array.from({ length: 60 }, (_, i) => 400 + i * 20);
    const fits = budgets.map((b) => fitResumeContext(after, 4, [], b, countTokens));
    for (const f of fits)
      if (f.context.completed_more > 0 && f.context.next.latest_request_first) {
        const oneMore = { ...f.limits, completed_tasks: f.limits.completed_tasks + 1, newer_request_note: 0 };
        const md = renderResumeContext(compileResumeContext(after, 4, [], oneMore));
        expect(countTokens(md), `at ${f.budget}`).toBeGreaterThan(f.budget);
      }
    expect(fits.some((f) => !f.context.next.latest_request_first && f.context.completed_more === 0)).toBe(
      true,
    );
  });
});

describe('the last state, cut to fit', () => {
  it('closes a code block the cut leaves open, so the sections after it are not code', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const text = `Done. The change:\n\n\`\`\`ts\n${'const x = 1;\n'.repeat(400)}\`\`\`\n\nAll tests pass.`;
    const snap: SessionSnapshot = {
      ...bigSnapshot(),
      summaries: {
        compaction: null,
        last_message: lastMessage(text, at),
      },
    };
    const md = fitResumeContext(snap, 4, [], 1500, countTokens).markdown;
    expect(md).toContain('### Last State');
    expect(md.match(/^```/gm)?.length ?? 0).toBe(2);
    expect(md.indexOf('### What to Do Next')).toBeGreaterThan(md.lastIndexOf('```'));
  });
});

describe('the last state at the last resorts', () => {
  it('is shown whole or at some length, or left out: never a stub of a few words (`The power…`)', () => {
    const text = 'The power commit had landed. modulo is added with a test and committed; 7 tests pass.';
    const snap: SessionSnapshot = {
      ...bigSnapshot(),
      summaries: {
        compaction: null,
        last_message: lastMessage(text),
      },
    };
    const shown = new Set<string>();
    // from where even the must-keep facts do not fit (the last state given back whole) to where it fits beside them
    for (let budget = 400; budget <= 1300; budget += 10) {
      const state = fitResumeContext(snap, 4, [], budget, countTokens).context.last_state;
      shown.add(state === null || state.text === '' ? 'none' : state.text === text ? 'whole' : state.text);
    }
    // each budget in the range has room for more or less of it: it is there whole, or not at all
    expect([...shown].sort()).toEqual(['none', 'whole']);
  });
});

/** A short workflow whose agent ended on a long markdown table (a report of 60 rows), with ten decisions recorded. */
function tableSnapshot(): SessionSnapshot {
  const big = bigSnapshot();
  const rows = Array.from(
    { length: 60 },
    (_, i) => `| ${i + 1} | src/module-${i}/handler.ts | passing | 12${i} ms | refactored the error path |`,
  );
  const text = [
    'All checks are done. Summary of the results:',
    '',
    '| # | file | state | time | note |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'Shall I open the pull request now?',
  ].join('\n');
  return {
    ...big,
    tasks: big.tasks.slice(35),
    tasks_completed: 5,
    issue: {
      id: 'ISSUE-7',
      title: 'Add login',
      description: 'Users must log in and stay logged in for a week.',
    },
    errors: [],
    reviewer_feedback: null,
    test_state: null,
    summaries: {
      compaction: null,
      last_message: lastMessage(text),
    },
  };
}

describe('the room the fit freed, given back', () => {
  it('keeps the latest decisions beside a long last state (a markdown table): they go once it is down to 1,500 characters', () => {
    const snap = tableSnapshot();
    const seen: [number, number][] = [];
    for (let budget = 1000; budget <= 2600; budget += 100) {
      const f = fitResumeContext(snap, 4, [], budget, countTokens);
      expect(f.over_budget).toBe(false);
      expect(f.tokens).toBeLessThanOrEqual(budget);
      const decisions = f.context.decisions.length;
      const last = f.context.last_state?.text.length ?? 0;
      seen.push([decisions, last]);
      if (last > 1500) expect(decisions, `at ${budget}`).toBeGreaterThanOrEqual(3);
    }
    // the hook's 9,000 characters are about 2,200 tokens: there the table's head and the decisions both fit
    const hook = fitResumeContext(snap, 4, [], 2200, countTokens).context;
    expect(hook.decisions.length).toBeGreaterThanOrEqual(3);
    expect(hook.last_state?.text).toMatch(/^All checks are done\. Summary of the results:\n\n\| # \| file/);
    expect(hook.last_state?.text).toContain('Shall I open the pull request now?');
    expect(seen.some(([d, l]) => d > 0 && l > 1500)).toBe(true);
  });

  it('gives the parts cut before a halving that freed more than the budget lacked their room back', () => {
    const snap = tableSnapshot();
    for (let budget = 1000; budget <= 2400; budget += 100) {
      const f = fitResumeContext(snap, 4, [], budget, countTokens);
      // the whole context is longer than these budgets: little of each is left unused (a halving left up to half)
      expect(f.tokens).toBeLessThanOrEqual(budget);
      expect(budget - f.tokens, `at ${budget}`).toBeLessThan(100);
    }
  });

  it('never exceeds the budget, and says over_budget exactly when the shortest form of the must-keep facts does not fit', () => {
    const table = tableSnapshot();
    const both = { ...bigSnapshot(), summaries: table.summaries };
    for (const snap of [bigSnapshot(), table, both])
      for (const budget of [400, 800, 1500, 4000])
        for (const overhead of [0, 25]) {
          const f = fitResumeContext(snap, 4, [], budget, countTokens, overhead);
          expect(f.tokens).toBe(countTokens(f.markdown));
          if (!f.over_budget) expect(f.tokens + overhead, `at ${budget}`).toBeLessThanOrEqual(budget);
          else {
            // the big snapshot's must-keep facts alone are longer than 400 tokens
            expect(budget).toBe(400);
            expect(snap).not.toBe(table);
            const least = renderResumeContext(compileResumeContext(snap, 4, [], f.limits));
            expect(countTokens(least) + overhead).toBeGreaterThan(budget);
          }
        }
    // the last resorts, at the budget of their own tokens: they fit there, and not a token under it
    const floors = fitResumeContext(both, 4, [], 50, countTokens);
    expect(floors.over_budget).toBe(true);
    const least = countTokens(renderResumeContext(compileResumeContext(both, 4, [], floors.limits)));
    const at = fitResumeContext(both, 4, [], least, countTokens);
    expect(at.over_budget).toBe(false);
    expect(at.tokens).toBe(least);
    expect(fitResumeContext(both, 4, [], least - 1, countTokens).over_budget).toBe(true);
  });

  it('compiles a context that fits at once once, and after the first compilation that fits, at most eight more', () => {
    const counts: number[] = [];
    const counter = (text: string) => {
      counts.push(countTokens(text));
      return counts.at(-1)!;
    };
    fitResumeContext(bigSnapshot(), 4, [], 100_000, counter);
    expect(counts).toHaveLength(1);
    for (const snap of [bigSnapshot(), tableSnapshot()])
      for (const budget of [600, 900, 1500, 2200]) {
        counts.length = 0;
        fitResumeContext(snap, 4, [], budget, counter);
        const fitted = counts.findIndex((n) => n <= budget);
        expect(fitted).toBeGreaterThan(0);
        expect(counts.length - 1 - fitted, `at ${budget}`).toBeLessThanOrEqual(8);
      }
  });
});

describe('the last state, cut to fit, of a last message', () => {
  it('keeps the question it ends on; a compaction summary keeps its head', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const ask = 'Would you like me to go on with the library instead?';
    const text = `Changes needed:\n${'- update one more count in the index file\n'.repeat(300)}\n${ask}`;
    const summary = (kind: 'last_message' | 'compaction') => ({
      id: 's1',
      timestamp: at,
      kind,
      text,
      source: 'claude-code',
      session_number: 1,
    });
    const md = (summaries: SessionSnapshot['summaries']) =>
      fitResumeContext({ ...bigSnapshot(), summaries }, 4, [], 1500, countTokens).markdown;
    const said = md({ compaction: null, last_message: summary('last_message') });
    expect(said).toMatch(/### Last State \(the agent's last message, [^)]+\)\nChanges needed:\n[^]*…\n\n/);
    expect(said).toContain(`\n\n${ask}\n(`);
    expect(md({ compaction: summary('compaction'), last_message: null })).not.toContain(ask);
  });
});

describe('a last state older than the work recorded after it', () => {
  const before = '2026-01-01T00:00:00.000Z';
  const summaryAt = '2026-01-01T00:05:00.000Z';
  const after = '2026-01-01T00:06:00.000Z';
  const compaction = {
    id: 's1',
    timestamp: summaryAt,
    kind: 'compaction' as const,
    text: '5. Current Work: adding an explicit b == 0 check to divide.\n6. Next Step: fix divide, then the README.',
    source: 'claude-code',
    session_number: 1,
  };
  const snapWith = (at: string): SessionSnapshot => {
    const big = bigSnapshot();
    const t = (i: number, status: 'done' | 'in_progress', started: string, ended: string | null) => ({
      ...task(i, status),
      started_at: started,
      ended_at: ended,
    });
    return {
      ...big,
      tasks: [t(1, 'done', before, before), t(2, 'done', before, at), t(3, 'in_progress', at, null)],
      current_task_id: 'T3',
      next_task_id: 'T3',
      tasks_completed: 2,
      tasks_remaining: 1,
      side_effects: [
        {
          id: 'c1',
          timestamp: before,
          task_id: null,
          kind: 'commit',
          tool: 'Bash',
          summary: 'aed2363 Add sub',
        },
        {
          id: 'c2',
          timestamp: at,
          task_id: null,
          kind: 'commit',
          tool: 'Bash',
          summary: '8d679d3 Add divide',
        },
      ],
      test_state: {
        phase: 'green',
        failing_tests: [],
        expected_failures: [],
        last_test_run_at: at,
        last_test_command: 'python3 -m pytest -q',
        last_test_output_summary: '5 passed, 0 failed',
      },
      summaries: { compaction, last_message: null },
    };
  };

  it('says what the other sections record since it: its current work and next step may be done', () => {
    const md = fitResumeContext(snapWith(after), 4, [], 100_000, countTokens).markdown;
    expect(md).toContain(
      `${compaction.text}\nNewer than this, in the sections above: T2 done, T3 started; 1 commit; a test run (5 passed, 0 failed).\n`,
    );
  });

  it('shows a compaction summary without the words Claude Code addresses to the conversation it continues', () => {
    const wrapped = {
      ...compaction,
      text: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${compaction.text}\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/u/.claude/projects/p/s.jsonl\nPlease continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.`,
    };
    const md = fitResumeContext(
      { ...snapWith(after), summaries: { compaction: wrapped, last_message: null } },
      4,
      [],
      100_000,
      countTokens,
    ).markdown;
    expect(md).toContain(`)\n${compaction.text}\nNewer than this, in the sections above:`);
    expect(md).not.toMatch(
      /Please continue|without asking the user|read the full transcript|being continued/,
    );
  });

  it('says so of a session cut off before the agent said anything, whose conversation went on after it', () => {
    const cut = {
      ...compaction,
      kind: 'last_message' as const,
      text: 'The session was cut off before the agent said anything. The transcript ends before this call returned (check whether it ran): `Bash: npm test`',
      said_nothing: true,
    };
    const md = fitResumeContext(
      { ...snapWith(after), summaries: { compaction: null, last_message: cut } },
      4,
      [],
      100_000,
      countTokens,
    ).markdown;
    expect(md).toContain(
      `### Last State (cut off before the agent said anything, ${summaryAt})\n${cut.text}\nNewer than this, in the sections above: T2 done, T3 started; 1 commit; a test run (5 passed, 0 failed).\n`,
    );
    // the agent's own last message announced what came after it: nothing is added to it
    const said = { ...cut, text: 'Running the tests now.', said_nothing: undefined };
    const words = fitResumeContext(
      { ...snapWith(after), summaries: { compaction: null, last_message: said } },
      4,
      [],
      100_000,
      countTokens,
    ).markdown;
    expect(words).not.toContain('Newer than this');
  });

  it('says so of a last message the user asked for more after, done without another word (a push, a PR)', () => {
    const snap = snapWith(after);
    const effect = (id: string, kind: 'push' | 'pr', summary: string) => ({
      id,
      timestamp: after,
      task_id: null,
      kind,
      tool: 'Bash',
      summary,
    });
    const said = { ...compaction, kind: 'last_message' as const, text: 'Done. The refactoring is complete.' };
    const asked = (requests: SessionSnapshot['requests']) =>
      fitResumeContext(
        {
          ...snap,
          requests,
          summaries: { compaction: null, last_message: said },
          side_effects: [
            ...(snap.side_effects ?? []),
            effect('p1', 'push', 'pushed fix-resume -> fix-resume'),
            effect('p2', 'pr', 'https://github.com/o/r/pull/58'),
          ],
        },
        4,
        [],
        100_000,
        countTokens,
      ).markdown;
    const push = {
      id: 'r9',
      timestamp: after,
      at: after,
      session_number: 1,
      source: null,
      text: 'push and create a PR',
    };
    expect(asked([...snap.requests, push])).toContain(
      'Done. The refactoring is complete.\nNewer than this, in the sections above: T2 done, T3 started; 1 commit; 1 push; 1 pull request; a test run (5 passed, 0 failed).\n',
    );
    // asked nothing since: what followed is what it announced
    expect(asked(snap.requests)).not.toContain('Newer than this');
  });

  it('says nothing more when nothing was recorded after it', () => {
    const { context, markdown } = fitResumeContext(snapWith(before), 4, [], 100_000, countTokens);
    expect(context.last_state?.since).toEqual([]);
    expect(markdown).not.toContain('Newer than this');
  });
});

describe('an unresolved error met again', () => {
  it('is said once, where it was met last, with how often', () => {
    const failing = (id: string, message: string, context: string) => ({
      id,
      timestamp: '2026-01-02T15:25:36.132Z',
      task_id: null,
      error_type: 'test_failure',
      error_message: message,
      context,
      resolution: 'unresolved' as const,
      resolution_notes: null,
    });
    const bom = '`npx vitest run`: FAIL src/a.test.ts > parser > reads a BOM';
    const md = fitResumeContext(
      {
        ...bigSnapshot(),
        errors: [
          failing('e1', bom, 'first run'),
          failing('e2', '`tsc`: src/a.ts(3,1): error TS2304', 'a build'),
          failing('e3', bom, 'second run'),
          failing('e4', bom, 'third run'),
        ],
        errors_total: 4,
      },
      1,
      [],
      4000,
      countTokens,
    ).markdown;
    expect(md).toContain(
      '  ! UNRESOLVED: test_failure: `tsc`: src/a.ts(3,1): error TS2304 (while: a build)\n' +
        `  ! UNRESOLVED (met 3 times): test_failure: ${bom} (while: third run)\n`,
    );
    expect(md.match(/reads a BOM/g)).toHaveLength(1);
    expect(md).not.toContain('more (baton details errors)');
  });
});

describe('a resolved error', () => {
  it('worked around says what worked when its record does (the call of the same program, the tool, the agent), else what the record holds of the way, else that it is not recorded', () => {
    const error = (id: string, resolution: 'workaround' | 'fixed', notes: string | null) => ({
      id,
      timestamp: '2026-01-02T15:25:36.132Z',
      task_id: null,
      error_type: 'command_failed',
      error_message: `\`codemie-codex --task "x"\`: Codex requires compatible models (${id})`,
      context: null,
      resolution,
      resolution_notes: notes,
    });
    const md = fitResumeContext(
      {
        ...bigSnapshot(),
        errors: [
          error(
            'e1',
            'workaround',
            'a different shell call succeeded (transcript line 109): `codemie-codex --profile ollama`',
          ),
          error('e2', 'workaround', 'the Grep tool succeeded after it'),
          // another program: a different way to the end, which the notes keep
          error(
            'e4',
            'workaround',
            'a different shell call succeeded (transcript line 123): `cat rollout.jsonl`',
          ),
          // another subcommand of the program (`gh pr merge` after `gh pr checks`): only the next call that worked
          error(
            'e5',
            'workaround',
            'a different shell call succeeded (transcript line 130): `codemie-codex pr merge`',
          ),
          // a program the shell could not find, run another way
          {
            ...error(
              'e6',
              'workaround',
              'a different shell call succeeded (transcript line 140): `python3 scan.py`',
            ),
            error_message: '`python scan.py`: zsh:1: command not found: python (e6)',
          },
          {
            ...error(
              'e7',
              'workaround',
              'a different shell call succeeded (transcript line 150): `mise exec -- pkl format x.pkl`',
            ),
            error_message: '`target/debug/hk fix -S pkl-format`: sh: pkl: command not found (e7)',
          },
          // a command that only names it (a search, an install) did not run it
          {
            ...error(
              'e8',
              'workaround',
              'a different shell call succeeded (transcript line 160): `grep -rn python src`',
            ),
            error_message: '`python scan.py`: zsh:1: command not found: python (e8)',
          },
          {
            ...error(
              'e9',
              'workaround',
              'a different shell call succeeded (transcript line 170): `brew install make`',
            ),
            error_message: '`make build`: zsh: command not found: make (e9)',
          },
          error(
            'e3',
            'fixed',
            'the same command succeeded (transcript line 120): `codemie-codex --task "x"`',
          ),
          // the agent's own words on the way it took
          error(
            'e10',
            'workaround',
            'I read the models from the config file instead. (went on: transcript line 180)',
          ),
          // a tool of another kind doing the same job, by the command it ran
          {
            ...error(
              'e11',
              'workaround',
              'the Bash tool succeeded (transcript line 53): `grep -n "def install" src/plugin.py`',
            ),
            error_message: 'LSP: Error performing goToDefinition: pyright-langserver not found (e11)',
          },
          // a refusal the agent went past some other way: nothing says which
          {
            ...error(
              'e12',
              'workaround',
              'refused by policy: the agent went on another way (transcript line 60)',
            ),
            error_type: 'tool_refused',
            error_message: 'js: Browser Use rejected this action (e12)',
          },
          // another call of the same tool, its command not recorded (a file tool): nothing says which
          {
            ...error('e13', 'workaround', 'a different Read call succeeded (transcript line 201)'),
            error_type: 'tool_error',
            error_message: 'Read: EISDIR: illegal operation on a directory (e13)',
          },
          // a sub-agent that stopped short: the agent went on without what it was to do
          {
            ...error('e14', 'workaround', 'the agent went on without it (transcript line 11)'),
            error_type: 'subagent_incomplete',
            error_message: 'Task: the sub-agent stopped before doing what it announced (e14)',
          },
          // the `cd` before each says nothing of what they do: another program ran next
          {
            ...error(
              'e15',
              'workaround',
              'a different shell call succeeded (transcript line 83): `cd /app && python3 tools/check.py`',
            ),
            error_message: '`cd /app && make types`: src/a.py:97: error: Incompatible types (e15)',
          },
        ],
        errors_total: 15,
      },
      4,
      [],
      100_000,
      countTokens,
    ).markdown;
    expect(md).toContain(
      'compatible models (e1) [workaround: `codemie-codex --profile ollama` worked instead]\n',
    );
    expect(md).toContain('compatible models (e2) [workaround: the Grep tool worked instead]\n');
    expect(md).toContain('compatible models (e3) [fixed]');
    // only the next call that worked: said as that, not as what replaced the failed call
    expect(md).toContain(
      'compatible models (e4) [worked around; the next call that worked: `cat rollout.jsonl`]\n',
    );
    expect(md).toContain(
      'compatible models (e5) [worked around; the next call that worked: `codemie-codex pr merge`]\n',
    );
    expect(md).toContain('command not found: python (e6) [workaround: `python3 scan.py` worked instead]\n');
    expect(md).toContain(
      'pkl: command not found (e7) [workaround: `mise exec -- pkl format x.pkl` worked instead]\n',
    );
    expect(md).toContain(
      'command not found: python (e8) [worked around; the next call that worked: `grep -rn python src`]\n',
    );
    expect(md).toContain(
      'command not found: make (e9) [worked around; the next call that worked: `brew install make`]\n',
    );
    expect(md).toContain(
      'compatible models (e10) [workaround, as the agent said: "I read the models from the config file instead."]\n',
    );
    expect(md).toContain(
      'pyright-langserver not found (e11) [workaround: `grep -n "def install" src/plugin.py` worked instead]\n',
    );
    // nothing of the way recorded: said so, rather than a bare tag or none (which reads as neither fixed nor open)
    expect(md).toContain('js: Browser Use rejected this action (e12) [worked around (how not recorded)]\n');
    expect(md).toContain('illegal operation on a directory (e13) [worked around (how not recorded)]\n');
    expect(md).toContain(
      'stopped before doing what it announced (e14) [worked around: the agent went on without it]\n',
    );
    expect(md).toContain(
      'Incompatible types (e15) [worked around; the next call that worked: `cd /app && python3 tools/check.py`]\n',
    );
    expect(md).not.toContain('[workaround]');
  });

  it('is left out when it was a slip fixed at once: the same call, or the failed one corrected, right after it', () => {
    const error = (id: string, resolution: 'workaround' | 'fixed', notes: string) => ({
      id,
      timestamp: '2026-01-02T15:25:36.132Z',
      task_id: null,
      error_type: 'command_failed',
      error_message: `\`python scan.py\`: zsh:1: command not found: python (${id})`,
      context: null,
      resolution,
      resolution_notes: notes,
    });
    const snap = {
      ...bigSnapshot(),
      errors: [
        error('s1', 'fixed', 'the same call succeeded right after it (transcript line 12)'),
        error(
          's2',
          'workaround',
          'a corrected call succeeded right after it (transcript line 14): `python3 scan.py`',
        ),
        error(
          's3',
          'fixed',
          'a corrected call succeeded right after it (transcript line 16): `git push --set-upstream origin x`',
        ),
        // the same call later, not right after: worth telling
        error('k1', 'workaround', 'a different shell call succeeded (transcript line 30): `python3 scan.py`'),
      ],
      errors_total: 4,
    };
    const fitted = fitResumeContext(snap, 4, [], 100_000, countTokens);
    expect(fitted.context.errors_resolved.map((e) => e.message)).toEqual([
      '`python scan.py`: zsh:1: command not found: python (k1)',
    ]);
    // counted with the others `baton details errors` lists
    expect(fitted.markdown).toContain('  ... and 3 more (baton details errors)');
  });
});

describe('what the last state and the decisions show', () => {
  const at = '2026-01-01T00:00:00.000Z';
  it("leaves out the lines that are only an app's directives (Codex's ::git-commit{...})", () => {
    const text = [
      'PR #1075 is fully green.',
      '',
      '::git-stage{cwd="/w/hk"}',
      '::git-push{cwd="/w/hk" branch="fix"}',
      'Working tree is clean. Note ::x{y} inline stays.',
    ].join('\n');
    const summary = {
      id: 's1',
      timestamp: at,
      kind: 'last_message' as const,
      text,
      source: 'codex',
      session_number: 1,
    };
    const md = fitResumeContext(
      { ...bigSnapshot(), summaries: { compaction: null, last_message: summary } },
      4,
      [],
      100_000,
      countTokens,
    ).markdown;
    expect(md).toContain('PR #1075 is fully green.\n\nWorking tree is clean. Note ::x{y} inline stays.');
    expect(md).not.toContain('::git-');
  });

  it('drops the resolved errors before the decisions: a fixed error is history, a decision still holds', () => {
    const seen: [number, number][] = [];
    for (let budget = 4000; budget >= 600; budget -= 100) {
      const { context, limits } = fitResumeContext(bigSnapshot(), 4, [], budget, countTokens);
      seen.push([context.decisions.length, context.errors_resolved.length]);
      // a resolved error is shown while a decision is left out only in room too short for the next decision
      if (context.decisions.length < 10 && context.errors_resolved.length) {
        const oneMore = { ...limits, decisions: context.decisions.length + 1, resolved_errors: 0 };
        const md = renderResumeContext(compileResumeContext(bigSnapshot(), 4, [], oneMore));
        expect(countTokens(md), `at ${budget}`).toBeGreaterThan(budget);
      }
    }
    // the budgets tried cut both: the order is what the test saw
    expect(seen.some(([d, r]) => d > 0 && r === 0)).toBe(true);
  });

  it('shows a rationale only when it says more than the decision shown above it', () => {
    const decision = (description: string, rationale: string) => ({
      id: description,
      timestamp: at,
      task_id: null,
      decision_type: 'approach' as const,
      description,
      rationale,
      alternatives_considered: null,
    });
    const snap: SessionSnapshot = {
      ...bigSnapshot(),
      decisions: [
        decision(
          "I'm opening the PR as ready for review (per this repository's policy).",
          "per this repository's  policy",
        ),
        decision('Use SQLite in memory for the tests.', 'the tests need no server'),
      ],
    };
    const { context, markdown } = fitResumeContext(snap, 4, [], 100_000, countTokens);
    expect(context.decisions.map((d) => d.rationale)).toEqual(['', 'the tests need no server']);
    expect(markdown.match(/Rationale:/g)).toHaveLength(1);
  });

  it("puts the user's later correction under the decision it speaks against", () => {
    const decision = {
      id: 'd1',
      timestamp: '2026-01-01T10:00:00.000Z',
      task_id: null,
      decision_type: 'architecture' as const,
      description:
        'Keep no conversationId: it is the same as sessionId, so the sync state stores nothing new.',
      rationale: '',
      alternatives_considered: null,
    };
    const correction = {
      id: 'r2',
      timestamp: '2026-01-01T11:00:00.000Z',
      at: '2026-01-01T11:00:00.000Z',
      session_number: 1,
      text: 'no, add conversationId field, but set value from sessionId',
      source: 'claude-code',
    };
    const snap: SessionSnapshot = { ...bigSnapshot(), decisions: [decision], requests: [correction] };
    const { context, markdown } = fitResumeContext(snap, 4, [], 100_000, countTokens);
    expect(context.decisions[0]?.corrected_by).toBe(correction.text);
    expect(markdown).toContain(
      '  - [architecture] Keep no conversationId: it is the same as sessionId, so the sync state stores nothing new.\n' +
        '    The user said after it: "no, add conversationId field, but set value from sessionId"',
    );
  });
});

describe('the goal', () => {
  it('names the workflow by its title when no request or issue is recorded', () => {
    const md = (title: string | undefined) =>
      fitResumeContext({ ...bigSnapshot(), issue: null, requests: [], title }, 4, [], 100_000, countTokens)
        .markdown;
    expect(md('Add login')).toContain(
      "### Goal (the user’s words)\nAdd login (the workflow's title; no request recorded)",
    );
    expect(md(undefined)).toContain('### Goal (the user’s words)\n(no request recorded)');
  });

  it('keeps more of the latest request than of the older ones', () => {
    const words = (n: number) =>
      `change ${n}: ${'keep the old API working while the new one ships '.repeat(30)}`;
    const requests = [1, 2, 3].map((n) => ({
      id: `r${n}`,
      timestamp: '2026-01-01T00:00:00.000Z',
      at: null,
      session_number: 1,
      text: words(n),
      source: 'claude-code',
    }));
    const goal = (budget: number) =>
      fitResumeContext({ ...bigSnapshot(), requests }, 4, [], budget, countTokens).context.goal.requests.map(
        (r) => r.text,
      );
    const roomy = goal(100_000);
    // the older ones are cut to the request's room (both ends kept, the cut's spaces dropped), the latest is whole
    expect(roomy.map((r) => r.length <= 600 && r.length >= 590)).toEqual([true, true, false]);
    expect(roomy[2]).toBe(words(3).trim());
    // short of room, the older ones go first, then the latest shrinks like the rest
    const tight = goal(1500);
    expect(tight.length).toBeLessThan(3);
    expect(tight.at(-1)).toMatch(/^change 3: /);
  });
});

describe('files already changed', () => {
  it('lists each file once, with its last change, relative to the folder they share', () => {
    const snap = bigSnapshot();
    const at = '2026-01-01T00:00:00.000Z';
    const write = (i: number, summary: string) => ({
      id: `f${i}`,
      timestamp: at,
      task_id: null,
      kind: 'file_write' as const,
      tool: 'Edit',
      summary,
    });
    const files = [
      'created /home/u/app/src/a.ts',
      'edited /home/u/app/src/a.ts',
      'edited /home/u/app/test/b.test.ts',
      'created /home/u/app/tmp/scratch.txt',
      'deleted /home/u/app/tmp/scratch.txt',
      'edited /home/u/app/src/c.ts',
      'deleted /home/u/app/src/c.ts',
    ].map((s, i) => write(i, s));
    const fitted = fitResumeContext({ ...snap, side_effects: files }, 4, [], 100_000, countTokens);
    expect(fitted.context.already_done.files).toEqual([
      'created src/a.ts',
      'edited test/b.test.ts',
      'created and deleted tmp/scratch.txt',
      'deleted src/c.ts',
    ]);
    expect(fitted.markdown).toContain(
      '  - files (under /home/u/app): created src/a.ts; edited test/b.test.ts; created and deleted tmp/scratch.txt; deleted src/c.ts',
    );
    // a session of a Windows machine (a Codex rollout from C:\Users\...): its folder said once the same way
    const windows = ['edited C:\\Users\\ana\\app\\test.md', 'created C:\\Users\\ana\\app\\docs\\notes.md'];
    const fromWindows = fitResumeContext(
      { ...snap, side_effects: windows.map((s, i) => write(i, s)) },
      4,
      [],
      100_000,
      countTokens,
    );
    expect(fromWindows.markdown).toContain(
      '  - files (under C:\\Users\\ana\\app): edited test.md; created docs\\notes.md',
    );
  });

  it('names a few files even with no room for the list: their count alone says nothing', () => {
    const snap = bigSnapshot();
    const write = (i: number, summary: string) => ({
      id: `f${i}`,
      timestamp: '2026-01-01T00:00:00.000Z',
      task_id: null,
      kind: 'file_write' as const,
      tool: 'Edit',
      summary,
    });
    const none = { ...defaultLimits, files: 0 };
    const few = ['edited /home/u/app/PLAN.md', 'edited /home/u/app/README.md'].map((s, i) => write(i, s));
    const named = compileResumeContext({ ...snap, side_effects: few }, 4, [], none).already_done;
    expect(named.files).toEqual(['edited PLAN.md', 'edited README.md']);
    expect(named.files_more).toBe(0);
    // more than a count's line would take: the count
    const many = Array.from({ length: 6 }, (_, i) => write(i, `edited /home/u/app/src/module-${i}.ts`));
    const counted = compileResumeContext({ ...snap, side_effects: many }, 4, [], none).already_done;
    expect(counted.files).toEqual([]);
    expect(counted.files_more).toBe(6);
  });
});

describe('files changed in the worktree', () => {
  it('shows each relative to the worktree, once, with its last fate, however the tools named it', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const write = (i: number, summary: string) => ({
      id: `f${i}`,
      timestamp: at,
      task_id: null,
      kind: 'file_write' as const,
      tool: i === 3 ? 'Bash' : 'Write',
      summary,
    });
    // the Write tool names a file by its absolute path, `rm` by the path it was given
    const files = [
      'edited /tmp/r/repo/src/math.js',
      'edited /tmp/r/repo/test/run.js',
      'created /tmp/r/repo/test/math.test.js',
      'deleted test/run.js',
      'created ./notes.txt',
      'deleted /tmp/r/repo/notes.txt',
      'edited /etc/hosts',
    ].map((s, i) => write(i, s));
    const snap = { ...bigSnapshot(), side_effects: files };
    const fitted = fitResumeContext(snap, 4, [], 100_000, countTokens, 0, {
      worktree: '/tmp/r/repo',
      status: 'in_progress',
    });
    expect(fitted.context.already_done.files).toEqual([
      'edited src/math.js',
      'created test/math.test.js',
      'deleted test/run.js',
      'created and deleted notes.txt',
      'edited /etc/hosts',
    ]);
    expect(fitted.context.already_done.files_under).toBeNull();
    // a file outside the worktree, in no worktree the session added: nothing said of its git
    expect(fitted.context.already_done.files_elsewhere).toBeNull();
    // without the worktree (a snapshot compiled on its own) the paths stay as recorded
    const alone = fitResumeContext(snap, 4, [], 100_000, countTokens);
    expect(alone.context.already_done.files).toContain('edited /tmp/r/repo/test/run.js');
  });

  it('names the worktree the session added that its files are in, whose git Git State does not read', () => {
    const write = (i: number, summary: string, kind: 'file_write' | 'other' = 'file_write') => ({
      id: `w${i}`,
      timestamp: '2026-01-01T00:00:00.000Z',
      task_id: null,
      kind,
      tool: 'Edit',
      summary,
    });
    const files = [
      'edited /tmp/r/repo-sdk2/src/server.py',
      'created /tmp/r/repo-sdk2/docs/adr/0018.md',
      'edited src/cli.py',
    ].map((s, i) => write(i, s));
    const added = write(9, 'added the worktree ../repo-sdk2 on the new branch feat/sdk2', 'other');
    const on = { worktree: '/tmp/r/repo', status: 'in_progress' as const };
    const fit = (effects: typeof files) =>
      fitResumeContext({ ...bigSnapshot(), side_effects: effects }, 4, [], 100_000, countTokens, 0, on);
    const fitted = fit([added, ...files]);
    expect(fitted.context.already_done.files_elsewhere).toBe('/tmp/r/repo-sdk2');
    expect(fitted.markdown).toContain(
      '  - (files in the worktree /tmp/r/repo-sdk2 the session added: Git State does not say whether they are committed there; `git -C /tmp/r/repo-sdk2 status` does)',
    );
    // the same files with no worktree the session added: nothing said
    expect(fit(files).context.already_done.files_elsewhere).toBeNull();
  });
});

describe('commits already made', () => {
  it('says which commit an amend replaced', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const commit = (id: string, summary: string) => ({
      id,
      timestamp: at,
      task_id: null,
      kind: 'commit' as const,
      tool: 'Bash',
      summary,
    });
    const snap = {
      ...bigSnapshot(),
      side_effects: [commit('c1', '00fb9c4 Add docs'), commit('c2', '283c50a Add docs (amends 00fb9c4)')],
    };
    const fitted = fitResumeContext(snap, 4, [], 100_000, countTokens);
    expect(fitted.context.already_done.commits.map((c) => c.hash)).toEqual(['00fb9c4', '283c50a']);
    expect(fitted.markdown).toContain('  - commit 00fb9c4 Add docs (replaced by 283c50a)');
    expect(fitted.markdown).toContain('  - commit 283c50a Add docs (amends 00fb9c4)');
  });

  it('lists the commits only git has, and for want of room keeps the newest five of them and counts the rest', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const hash = (i: number) => `${String(i).padStart(2, '0')}${'c'.repeat(10)}`;
    const listed = Array.from({ length: 30 }, (_, i) => ({ hash: hash(i), subject: `git-only commit ${i}` }));
    const snap = {
      ...bigSnapshot(),
      side_effects: [
        {
          id: 'c1',
          timestamp: at,
          task_id: null,
          kind: 'commit' as const,
          tool: 'Bash',
          summary: '1a2b3c4 Reported',
        },
      ],
      git_state: {
        branch: 'main',
        commit_at_workflow_start: 'a1b2c3d4e5f6a7b8',
        commit_at_snapshot: `${hash(29)}0000`,
        files_modified: [],
        files_staged: [],
        has_uncommitted_changes: false,
        uncommitted_summary: null,
        head_subject: 'git-only commit 29',
        work_commits: { listed, more: 4, began_at: at },
      },
    };
    const roomy = fitResumeContext(snap, 4, [], 100_000, countTokens);
    expect(roomy.context.already_done.commits).toHaveLength(31);
    expect(roomy.markdown).toContain(
      '  - 4 more commits since the workflow began (git log --oneline a1b2c3d..HEAD)',
    );
    const tight = fitResumeContext(snap, 4, [], 700, countTokens);
    expect(tight.over_budget).toBe(false);
    // the reported commit and the newest five of git's, by hash (their subjects may be cut short to fit)
    const shown = tight.context.already_done.commits.map((c) => c.hash);
    expect(shown).toEqual(['1a2b3c4', ...[25, 26, 27, 28, 29].map((i) => hash(i).slice(0, 7))]);
    expect(tight.markdown).toContain(
      '  - 29 more commits since the workflow began (git log --oneline a1b2c3d..HEAD)',
    );
  });
});

describe('pull requests already made', () => {
  /** A pull request recorded by a shell call, its summary as the import makes it. */
  const pr = (id: string, summary: string) => ({
    id,
    timestamp: '2026-01-01T00:00:00.000Z',
    task_id: null,
    kind: 'pr' as const,
    tool: 'Bash',
    summary,
  });

  it('lists a pull request created and then merged once, said merged', () => {
    const snap = {
      ...bigSnapshot(),
      side_effects: [
        pr('p1', 'merged PR #221'),
        pr('p2', 'https://github.com/o/r/pull/233'),
        pr('p3', 'merged PR #233'),
      ],
    };
    expect(fitResumeContext(snap, 4, [], 100_000, countTokens).context.already_done.pull_requests).toEqual([
      'merged PR #221',
      'https://github.com/o/r/pull/233 (merged)',
    ]);
  });

  it('says a pull request by its latest known state: auto-merge enabled, then merged, is merged', () => {
    const snap = {
      ...bigSnapshot(),
      side_effects: [
        pr('p1', 'enabled auto-merge of PR #221'),
        pr('p2', 'enabled auto-merge of PR #234'),
        pr('p3', 'merged PR #221'),
      ],
    };
    expect(fitResumeContext(snap, 4, [], 100_000, countTokens).context.already_done.pull_requests).toEqual([
      'enabled auto-merge of PR #234',
      'merged PR #221',
    ]);
  });

  it('says a merge by what it did, which names the pull request, and one opened by its address', () => {
    // entirecontext 39's "gh pr merge 221 --squash --auto" read "pull request enabled auto-merge of PR #221"
    const snap = {
      ...bigSnapshot(),
      side_effects: [
        pr('p1', 'enabled auto-merge of PR #221'),
        pr('p2', 'https://github.com/o/r/pull/233'),
        pr('p3', 'merged PR #240'),
      ],
    };
    const md = fitResumeContext(snap, 4, [], 100_000, countTokens).markdown;
    expect(md).toContain(
      '  - enabled auto-merge of PR #221\n  - pull request https://github.com/o/r/pull/233\n  - merged PR #240\n',
    );
    expect(md).not.toMatch(/pull request (?:enabled|merged)/);
  });
});

describe('the git state', () => {
  it('says what is uncommitted apart from what changed since the start, committed or not', () => {
    const git_state = {
      branch: 'main',
      commit_at_workflow_start: 'a1b2c3d',
      commit_at_snapshot: 'e4f5a6b',
      // one committed since the start, one edited and one new since
      files_modified: ['src/math.js', 'src/add.js', 'notes.txt'],
      files_staged: [],
      has_uncommitted_changes: true,
      uncommitted_summary: '1 file changed, 2 insertions(+), 1 untracked',
    };
    const md = fitResumeContext({ ...bigSnapshot(), git_state }, 4, [], 100_000, countTokens).markdown;
    expect(md).toContain(
      '- Branch main at e4f5a6b, uncommitted changes (1 file changed, 2 insertions(+), 1 untracked); 3 files changed since the start',
    );
    const clean = { ...git_state, files_modified: ['src/math.js'], has_uncommitted_changes: false };
    const committed = fitResumeContext({ ...bigSnapshot(), git_state: clean }, 4, [], 100_000, countTokens);
    expect(committed.markdown).toContain(
      '- Branch main at e4f5a6b, no uncommitted changes; 1 file changed since the start',
    );
    // HEAD named by its subject too, when the capture read it
    const named = { ...clean, head_subject: 'Add mul' };
    expect(
      fitResumeContext({ ...bigSnapshot(), git_state: named }, 4, [], 100_000, countTokens).markdown,
    ).toContain('- Branch main at e4f5a6b "Add mul", no uncommitted changes; 1 file changed since the start');
  });

  it('names the uncommitted files, the first five, and lets them go before anything else when room is short', () => {
    const files = ['src/add.js', 'notes.txt', 'a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];
    const git_state = {
      branch: 'main',
      commit_at_workflow_start: 'a1b2c3d',
      commit_at_snapshot: 'e4f5a6b',
      files_modified: files,
      files_staged: [],
      has_uncommitted_changes: true,
      uncommitted_summary: '1 file changed, 6 untracked',
      uncommitted_files: files,
    };
    const snap = { ...bigSnapshot(), git_state };
    expect(fitResumeContext(snap, 4, [], 100_000, countTokens).markdown).toContain(
      '- Branch main at e4f5a6b, uncommitted changes (1 file changed, 6 untracked): src/add.js, notes.txt, a.txt, b.txt, c.txt, d.txt, e.txt; 7 files changed since the start',
    );
    const five = compileResumeContext(snap, 4, [], defaultLimits);
    expect(renderResumeContext(five)).toContain(
      'uncommitted changes (1 file changed, 6 untracked): src/add.js, notes.txt, a.txt, b.txt, c.txt and 2 more; 7 files',
    );
    // a tight budget keeps the count (the summary), not the names
    const tight = fitResumeContext(snap, 4, [], 1500, countTokens);
    expect(tight.limits.uncommitted_files).toBe(0);
    expect(tight.markdown).toContain('uncommitted changes (1 file changed, 6 untracked); 7 files changed');
  });
});

describe('the facts a small budget keeps last', () => {
  /** A finished plan of six tasks beside forty pull requests, and one open error the agent hit while saying why. */
  function smallPlan(): SessionSnapshot {
    const big = bigSnapshot();
    const at = big.created_at;
    return {
      ...big,
      issue: { id: 'ISSUE-7', title: 'Add login', description: 'Add a login page.' },
      tasks: Array.from({ length: 6 }, (_, i) => task(i + 1, 'done')),
      next_task_id: null,
      tasks_completed: 6,
      tasks_remaining: 0,
      decisions: [],
      decisions_total: 0,
      reviewer_feedback: [],
      errors: [
        {
          id: 'u1',
          timestamp: at,
          task_id: null,
          error_type: 'command_failed',
          error_message: '`gh pr status --json currentBranch`: Unknown JSON field: "currentBranch"',
          context: `I'll make the smallest fix for the flaky assertion, then ${'branch, commit and push, '.repeat(4)}and open the PR.`,
          resolution: 'unresolved',
          resolution_notes: null,
        },
      ],
      errors_total: 1,
      test_state: {
        phase: 'green',
        failing_tests: [],
        expected_failures: [],
        last_test_run_at: at,
        last_test_command: 'npm test',
        last_test_output_summary: '12 passed, 0 failed',
      },
      side_effects: Array.from({ length: 40 }, (_, i) => ({
        id: `pr${i}`,
        timestamp: at,
        task_id: null,
        kind: 'pr' as const,
        tool: 'Bash',
        summary: `https://github.com/acme/app/pull/${1000 + i}`,
      })),
    };
  }

  it('pushes and pull requests go into a count before the finished tasks do', () => {
    const fitted = fitResumeContext(smallPlan(), 2, [], 400, countTokens);
    expect(fitted.over_budget, fitted.markdown).toBe(false);
    for (let i = 1; i <= 6; i++) expect(fitted.markdown).toMatch(new RegExp(`\\[x\\] T${i} task`));
    expect(fitted.context.already_done.pushes_prs_more).toBeGreaterThan(0);
  });

  it("what the agent was doing at an open error shrinks with it, then goes; the error's words stay", () => {
    const whole = fitResumeContext(smallPlan(), 2, [], 100_000, countTokens).markdown;
    expect(whole).toContain("(while: I'll make the smallest fix for the flaky assertion");
    const small = fitResumeContext(smallPlan(), 2, [], 400, countTokens);
    expect(small.markdown).toContain('! UNRESOLVED: command_failed: `gh pr status --json currentBranch`');
    expect(small.markdown).not.toContain('(while:');
  });

  it('says no test fails once, where the last run counts none failed', () => {
    const md = fitResumeContext(smallPlan(), 2, [], 100_000, countTokens).markdown;
    expect(md).toContain('- Last run: npm test -> 12 passed, 0 failed');
    expect(md).not.toContain('Failing tests: none');
    const uncounted = smallPlan();
    uncounted.test_state = { ...uncounted.test_state!, last_test_output_summary: 'all green' };
    expect(fitResumeContext(uncounted, 2, [], 100_000, countTokens).markdown).toContain(
      '- Failing tests: none',
    );
  });
});

describe('the last state at a small budget', () => {
  /** Forty files written and a test run passed, then a last message longer than a small budget has room for. */
  function worked(): SessionSnapshot {
    const big = bigSnapshot();
    const at = big.created_at;
    return {
      ...big,
      issue: { id: 'ISSUE-7', title: 'Add login', description: 'Add a login page.' },
      tasks: [task(1, 'done'), task(2, 'pending')],
      next_task_id: 'T2',
      tasks_completed: 1,
      tasks_remaining: 1,
      decisions: [],
      decisions_total: 0,
      reviewer_feedback: [],
      errors: [],
      errors_total: 0,
      test_state: {
        phase: 'green',
        failing_tests: [],
        expected_failures: [],
        last_test_run_at: at,
        last_test_command: 'npm test',
        last_test_output_summary: '12 passed, 0 failed',
      },
      side_effects: Array.from({ length: 40 }, (_, i) => ({
        id: `f${i}`,
        timestamp: at,
        task_id: null,
        kind: 'file_write' as const,
        tool: 'Edit',
        summary: `edited /w/app/src/module-${i}/handler.ts`,
      })),
      summaries: {
        compaction: null,
        last_message: lastMessage(
          `The login form posts to /session and keeps the cookie for a week. ${'It checks the password against the stored hash and rate-limits failed tries per address. '.repeat(6)}Next: the logout button.`,
        ),
      },
    };
  }

  it('keeps it, trimmed, before the lines that only count (the files not named, `tests pass` beside TDD State)', () => {
    const snap = worked();
    let trimmed = 0;
    let counted = 0;
    for (let budget = 250; budget <= 700; budget += 10) {
      const f = fitResumeContext(snap, 1, [], budget, countTokens);
      if (f.over_budget) continue;
      expect(f.tokens).toBeLessThanOrEqual(budget);
      if (f.markdown.includes('  - 40 files created, edited or deleted\n  - tests pass\n')) counted++;
      // the last state cut to 400 characters or fewer: the lines that only count went before it
      if ((f.context.last_state?.text.length ?? 0) > 400) continue;
      trimmed++;
      expect(f.markdown, `at ${budget}`).not.toContain('files created, edited or deleted');
      expect(f.markdown, `at ${budget}`).not.toContain('  - tests pass');
      expect(f.markdown, `at ${budget}`).toContain('- Last run: npm test -> 12 passed, 0 failed');
    }
    expect(trimmed).toBeGreaterThan(0);
    expect(counted).toBeGreaterThan(0);
  });
});
