import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { askOf, gistOf, limitsTheAgent, setsARule } from './request-gist.js';

const REVIEW = 'codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl';
const DISPATCHED = 'codex/petercr-jev-orchestrator/3/full.jsonl';

/** Long requests as users and coordinators write them (shapes of real sessions, in other words). */
const spoken =
  "Okay, so we recently added support for plugins that bundle other plugins, which are all installed together. And I think the installer already handles the dependencies of the root plugin and of the children. First, confirm this. Make sure that the Python dependencies of all of them are installed, recursively. Now the second thing I'm worried about is the settings of the bundled components. I think maybe we only prompt for the root plugin. So I also want you to audit this. So audit whether this already happens or whether it is something we need to add.";
const dispatched = [
  'You are a dispatched worker. Your coordinator is term_42.',
  '',
  '=== COMMANDS ===',
  '  # Report the outcome once. Send a heartbeat while you work on',
  '  # the task, so a hung worker is noticed.',
  '  orca send --type worker_done',
  '',
  '=== TASK ===',
  'Documentation-only change on feat/cancel. Edit only PLAN.md and README.md to record the live verification.',
  '',
  'Acceptance: git diff --check passes; do not commit.',
].join('\n');

describe('the ask of a prompt a coordinator wrote around a task section', () => {
  it('is the task section, not the protocol before it (a comment that mentions "the task" is no heading)', () => {
    expect(askOf(dispatched)).toBe(
      'Documentation-only change on feat/cancel. Edit only PLAN.md and README.md to record the live verification.\n\nAcceptance: git diff --check passes; do not commit.',
    );
    expect(askOf('## Task\nRename the flag.\n\n## Notes\nIt is used in two places.')).toBe(
      '## Task\nRename the flag.\n\n## Notes\nIt is used in two places.',
    );
    expect(
      askOf(
        '# Context\nThe repo uses pnpm.\n\n## Your task\nRename the flag everywhere.\n\n## Notes\nTwo places.',
      ),
    ).toBe('Rename the flag everywhere.');
    // a task heading after an opening that makes the request heads its steps: the whole text is the ask
    const steps =
      'Analyze the CLI commands and write a spec for the missing ones.\n\n## Your task\n1. Review src/cli.\n2. List the gaps.';
    expect(askOf(steps)).toBe(steps);
    const log =
      'The upload fails with a 500. Here is what I see:\nRequest:\nPOST /api/upload HTTP/1.1\nResponse:\n500';
    expect(askOf(log)).toBe(log);
    expect(askOf('Fix the login bug. The task: keep the old cookie name.')).toBe(
      'Fix the login bug. The task: keep the old cookie name.',
    );
  });
});

describe('a long request in fewer characters', () => {
  it('keeps a short request whole, and never exceeds the room it is given', () => {
    expect(gistOf('Fix the login bug.', 240)).toBe('Fix the login bug.');
    for (const max of [60, 100, 240, 400])
      for (const text of [spoken, dispatched, `${'word '.repeat(300)}end`])
        expect(gistOf(text, max).length).toBeLessThanOrEqual(max);
  });

  it('a spoken paragraph keeps what it asks, the last ask first, and not the background', () => {
    const gist = gistOf(spoken, 240);
    expect(gist).toContain(
      'First, confirm this. Make sure that the Python dependencies of all of them are installed',
    );
    expect(gist).toContain(
      'So audit whether this already happens or whether it is something we need to add.',
    );
    expect(gist).not.toContain('Now the second thing');
    expect(gist).toContain(' … ');
  });

  it('an opening that asks leads; background gets the room left', () => {
    const review =
      '<task>Review only the uncommitted rename feature against its spec and plan. Read docs/spec.md and docs/plan.md first. The feature touches the migrations and the hooks. Read-only: do not modify files or run tests.</task>';
    expect(gistOf(review, 160)).toMatch(/^<task>Review only the uncommitted rename/);
    expect(gistOf(spoken, 400)).toMatch(/^Okay, so we recently added support for plugins/);
  });

  it('keeps a sentence that limits the agent, cut, when the room is too small for it whole', () => {
    // the first request of codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl (line 11), which a 400-token
    // briefing showed as "<task>Review only the current uncommitted decision-file rename…", its read-only rule lost
    const review = JSON.parse(readCorpus(REVIEW).split('\n')[10] as string).payload.message as string;
    expect(review).toContain('Read-only: do not modify files or run tests, builds, formatters, or network.');
    for (const max of [100, 120]) {
      const gist = gistOf(review, max);
      expect(gist.length).toBeLessThanOrEqual(max);
      expect(gist).toMatch(
        /^<task>Review only the current uncommitted decision-file rename… … Read-only: do not modify files\b.*…$/,
      );
    }
    // a brief of several lines keeps its ends, and the limit between them cut the same way
    const brief = `Fix the login bug\n${'Here is the log line that failed. '.repeat(12)}\nNever push to main or force-push any branch of this repository, whatever the tests say.\nThen tell me what broke it`;
    expect(gistOf(brief, 100)).toBe(
      'Fix the login bug\nHere is … Then tell me what broke it … Never push to main or force-push…',
    );
    expect(gistOf(review, 150)).toMatch(
      / … Read-only: do not modify files or run tests, builds, formatters, or network\.<\/task>$/,
    );
  });

  it('keeps a limit from the clause that says it, one on what the agent does first', () => {
    // a real dispatched worker's prompt (codex/petercr-jev-orchestrator/3, line 9): a 400-token briefing showed
    // "… Local process identity/group checks…", the head of a sentence whose limit came after its semicolon, and lost
    // "do not rerun model calls, install, ... commit/push/open PR"
    const line = readCorpus(DISPATCHED).split('\n')[8] as string;
    const prompt = (JSON.parse(line) as { payload: { content: { text: string }[] } }).payload.content[0]!
      .text;
    for (const max of [200, 300]) {
      const gist = gistOf(prompt, max);
      expect(gist.length).toBeLessThanOrEqual(max);
      expect(gist).toMatch(/^Documentation-only implementation in /);
      expect(gist).toMatch(/ … do not rerun model calls, install, repeat full tests for\b.*…$/);
      expect(gist).not.toContain('Local process identity');
    }
    // with room for both, the limit on what the agent claims comes after, from its clause too
    expect(gistOf(prompt, 500)).toMatch(
      /commit\/push\/open PR, or edit generated\/local files\. .* … do not overclaim remote model termination, all OS portability, or successful final task completion\.$/,
    );
  });

  it('says a limit its head already shows once: the rest of its sentence, when that limits too', () => {
    // a real request (codemie-code-2 session-196820da, line 200): a 700-token briefing quoted it as "the main idea is
    // fine, however sessionOrchecstrator must not be agent specific … storage for user prompts … the main idea is
    // fine, however sessionOrchecstrator must not be…", its opening twice
    const line = readCorpus('claude-code/codemie-code-2/session-196820da.jsonl').split('\n')[199] as string;
    const request = (JSON.parse(line) as { message: { content: string } }).message.content;
    const opening = 'the main idea is fine, however sessionOrchecstrator must not be';
    for (const max of [120, 160, 200, 250, 300]) {
      const gist = gistOf(request, max);
      expect(gist.length, gist).toBeLessThanOrEqual(max);
      expect(gist.startsWith(opening), gist).toBe(true);
      expect(gist.indexOf(opening, 1), gist).toBe(-1);
    }
    // what the head leaves of the limit is said after the end
    expect(gistOf(request, 200)).toMatch(/ … and don't refer to agent specific path\/folder\.$/);
  });

  it('reads "not to commit" as a limit on what the agent does, kept however short the room', () => {
    // a real request (codemie-code-2 session-196820da, line 208): a 700-token Goal kept only the latest request, not
    // this one, and it would not have been kept in force past the last 10 requests: "not to commit" was not read as a
    // limit
    const line = readCorpus('claude-code/codemie-code-2/session-196820da.jsonl').split('\n')[207] as string;
    const request = (JSON.parse(line) as { message: { content: string } }).message.content;
    expect(limitsTheAgent(request)).toBe(true);
    for (const max of [60, 100])
      expect(gistOf(request, max)).toContain('not to commit changes until final step.');
    expect(limitsTheAgent('I decided the plan is fine; prepare the release notes')).toBe(false);
  });

  it('reads a rule the user gave for the whole session, in a few words, and nothing else', () => {
    for (const rule of [
      'always run the tests before committing',
      'Always use conventional commit messages.',
      'use pnpm',
      'Use pnpm instead of npm',
      'please answer in Korean',
      'Reply in English from now on.',
      'from now on, squash your commits before pushing',
      'For the rest of this session, keep the changelog updated',
    ])
      expect(setsARule(rule), rule).toBe(true);
    for (const task of [
      'use pnpm to add lodash to the web package',
      'run the tests',
      'always the same flaky test, can you look at it?',
      'fix the Korean translation in the settings page',
      'write the README in English and the docs in Korean, then open a PR for review with the screenshots attached',
      `Implement the plan below. ${'Always keep the API stable. '.repeat(8)}`,
    ])
      expect(setsARule(task), task).toBe(false);
  });

  it("a dispatched worker's prompt shows its task; a pasted brief keeps its title line and its closing ask", () => {
    expect(gistOf(dispatched, 120)).toMatch(/^Documentation-only change on feat\/cancel\./);
    const brief = `Temporal AI Challenge - Give AI a Sense of Time\n${'Build a model that reads signals. Submit a report. '.repeat(20)}\nnow lets build a pipeline step by step, but dont use the listed datasets.`;
    const gist = gistOf(brief, 240);
    expect(gist).toMatch(/^Temporal AI Challenge - Give AI a Sense of Time/);
    expect(gist).toMatch(/but dont use the listed datasets\.$/);
    // an opening that ends on a colon keeps the line it introduces: the plan's title
    const plan = `Implement the following plan:\n\n# Plan: Add frozen checks to self-transfer\n\n${'## Step\nEdit the file and check it. '.repeat(20)}`;
    expect(gistOf(plan, 120)).toMatch(
      /^Implement the following plan:\n\n# Plan: Add frozen checks to self-transfer …/,
    );
  });

  it('keeps what limits the agent ("Read-only: do not ...") however short the room: the next session must keep to it', () => {
    // a reviewer's prompt on one line (the shape of a real Codex session's): the limit stands among long asks
    const review = [
      '<task>Review only the current uncommitted rename lineage feature against its approved Spec, ADR, and Plan.',
      `Read ${'docs/specs/2026-08-17-rename-lineage-design.md, '.repeat(4)}and the tests.`,
      'Read-only: do not modify files or run tests, builds, formatters, or network.</task>',
      `Check parser framing, ${'Git ancestry and error semantics, schema parity and strict replay, '.repeat(3)}and coverage.`,
      'Return CLEAN if no actionable issue remains.',
    ].join(' ');
    const gist = gistOf(review, 400);
    expect(gist.length).toBeLessThanOrEqual(400);
    expect(gist).toMatch(/^<task>Review only the current uncommitted rename lineage feature/);
    expect(gist).toContain('Read-only: do not modify files or run tests, builds, formatters, or network.');
    // a pasted brief keeps its ends, and the limit from its middle after them
    const brief = `Release checklist\n${'Bump the version and tag it. '.repeat(30)}\nNever push to main directly.\n${'Write the notes. '.repeat(30)}\nThen open the PR.`;
    const cut = gistOf(brief, 300);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut).toMatch(/^Release checklist\n/);
    expect(cut).toMatch(/Then open the PR\. … Never push to main directly\.$/);
  });
});

describe('a pasted address an app wrote as a link to itself', () => {
  it('is said once, as pasted; a link with words of its own stays', () => {
    const url = 'https://github.com/acme/app/actions/runs/1/job/2';
    expect(gistOf(`why is [${url}](${url}) failing`, 200)).toBe(`why is ${url} failing`);
    expect(gistOf(`see [the job](${url})`, 200)).toBe(`see [the job](${url})`);
  });

  it('an order to do a thing again ("Re-review ...", "rerun ...") asks: it leads over the rules after it', () => {
    const prompt =
      '<task>Re-review only the six original findings against the current files after author fixes. Verify: merge ' +
      'commits use separate-parent diffs; truncated NUL output is rejected. The warning finding was rejected on ' +
      'purpose.</task><grounding_rules>Read only current relevant source/tests/docs. Do not edit or run ' +
      'tests/builds/network.</grounding_rules>';
    expect(gistOf(prompt, 80)).toMatch(/^<task>Re-review only the six original findings/);
    expect(gistOf(prompt, 40)).toMatch(/^<task>Re-review only/);
  });
});
