import { describe, expect, it } from 'vitest';
import { entry } from '../../../../test/helpers/tool-results.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { planInCell } from '../../../core/agent-tasks/agent-task-calls.js';
import { readSession } from '../../session/index.js';
import { ciChecks } from '../errors/ci-checks.js';
import { addedDependencies } from './dependency-edits.js';
import { RulesExtractor } from '../rules-extractor.js';

const rules = new RulesExtractor();
const said = (t: string) => entry('assistant', 'text', t);
const user = (t: string) => entry('user', 'text', t);
/** A tool call and its successful result. */
const tool = (id: string, name: string, input: unknown, output: string, exit: number | null = null) => [
  { ...entry('assistant', 'tool_call', ''), tool: { id, name, input, is_error: null, exit_code: null } },
  {
    ...entry('tool', 'tool_result', output),
    tool: { id, name, input, is_error: exit !== null && exit !== 0, exit_code: exit },
  },
];
const descriptions = async (entries: TranscriptEntry[]) =>
  (await rules.extract({ entries })).decisions.map((d) => [d.evidence_line, d.decision_type, d.description]);

describe('decisions from structured signals', () => {
  it("reads the user's answers however Claude Code words the result", async () => {
    const entries = [
      ...tool(
        'a',
        'AskUserQuestion',
        {},
        'Your questions have been answered: "Which database?"="SQLite". Continue.',
      ),
      ...tool(
        'b',
        'AskUserQuestion',
        {},
        'The user answered: "Approve the design?"="Get an independent review first".',
      ),
      ...tool('c', 'AskUserQuestion', {}, 'No response after 300s — the user may be away from keyboard.'),
    ];
    // each answer is a decision at its result's line (the tool results' lines count on across files)
    expect(await descriptions(entries)).toEqual([
      [entries[1]?.line, 'clarification', 'Which database? -> SQLite'],
      [entries[3]?.line, 'clarification', 'Approve the design? -> Get an independent review first'],
    ]);
  });

  it('an approved plan is a decision where the plan was stated; a rejected one is not', async () => {
    const plan = said('Let me write the plan for your approval.\n\n## Proposed Beads\n\n- add credo');
    const approved = [
      plan,
      ...tool('p', 'ExitPlanMode', {}, 'User has approved exiting plan mode. You can now proceed.'),
    ];
    expect(await descriptions(approved)).toEqual([[plan.line, 'approach', 'Approved plan: Proposed Beads']]);
    const withPlan = tool(
      'q',
      'ExitPlanMode',
      { plan: '# Cache the tokenizer\n\n1. ...' },
      'User has approved your plan.',
    );
    expect(await descriptions(withPlan)).toEqual([
      [withPlan[0]?.line, 'approach', 'Approved plan: Cache the tokenizer'],
    ]);
    // its steps and the choices it states are kept with it, not only its name
    const stated = tool(
      's',
      'ExitPlanMode',
      {
        plan: '## Plan: div()\n\n1. Add div(a, b) to math.js\n2. Test it\n\nDecision: throw RangeError rather than return NaN',
      },
      'User has approved your plan.',
    );
    expect((await rules.extract({ entries: stated })).decisions[0]).toMatchObject({
      description: 'Approved plan: div()',
      rationale:
        'the user approved the plan: Add div(a, b) to math.js; Test it; Decision: throw RangeError rather than return NaN',
    });
    // a long plan is cut to the room a rationale has, and says it was cut
    const long = tool(
      't',
      'ExitPlanMode',
      { plan: `# Rewrite the importer\n\n${'- a step of the plan that says what to change\n'.repeat(20)}` },
      'User has approved your plan.',
    );
    const why = (await rules.extract({ entries: long })).decisions[0]?.rationale ?? '';
    expect(why.length).toBeLessThanOrEqual(400);
    expect(why).toMatch(/^the user approved the plan: a step of the plan .*…$/);
    const rejected = tool(
      'r',
      'ExitPlanMode',
      { plan: '# Other' },
      "The user doesn't want to proceed with this tool use.",
    );
    expect(await descriptions(rejected)).toEqual([]);
  });

  it('a dependency added to a manifest by an edit is a library decision; a version bump or a script is not', async () => {
    const mix = tool(
      'm',
      'Edit',
      {
        file_path: '/app/mix.exs',
        old_string: '      {:dialyxir, "~> 1.4", only: [:dev, :test], runtime: false},',
        new_string:
          '      {:lazy_html, ">= 0.1.0", only: :test},\n      {:dialyxir, "~> 1.4", only: [:dev, :test], runtime: false},',
      },
      'The file /app/mix.exs has been updated successfully.',
    );
    expect(await descriptions(mix)).toEqual([
      [mix[0]?.line, 'library', 'Added dependency lazy_html (mix.exs)'],
    ]);
    const bump = tool(
      'b',
      'Edit',
      { file_path: 'pyproject.toml', old_string: '    "mcp>=1.0.0,<2",', new_string: '    "mcp>=2.0.0,<3",' },
      'updated',
    );
    const script = tool(
      's',
      'Edit',
      {
        file_path: 'package.json',
        old_string: '"scripts": {',
        new_string: '"scripts": {\n    "test": "vitest run",',
      },
      'updated',
    );
    expect(await descriptions([...bump, ...script])).toEqual([]);
    const patch = [
      '*** Begin Patch',
      '*** Update File: Cargo.toml',
      '@@',
      ' [dependencies]',
      '+serde = { version = "1", features = ["derive"] }',
      ' anyhow = "1"',
      '*** End Patch',
    ].join('\n');
    const cargo = tool('c', 'apply_patch', patch, 'Success. Updated the following files:\nM Cargo.toml');
    expect(await descriptions(cargo)).toEqual([
      [cargo[0]?.line, 'library', 'Added dependency serde (Cargo.toml)'],
    ]);
  });
});

describe('dependencies added to each kind of manifest', () => {
  const edit = (file_path: string, old_string: string, new_string: string) => ({
    ...entry('tool', 'tool_result', 'updated'),
    tool: {
      id: 'e',
      name: 'Edit',
      input: { file_path, old_string, new_string },
      is_error: false,
      exit_code: null,
    },
  });
  it.each([
    [
      'package.json',
      '"dependencies": {\n    "zod": "^4.0.0"',
      '"dependencies": {\n    "hono": "^4.1.0",\n    "zod": "^4.0.0"',
      ['hono'],
    ],
    ['requirements-dev.txt', 'pytest==8.0', 'pytest==8.0\nhypothesis>=6.100', ['hypothesis']],
    ['go.mod', 'require (\n', 'require (\n\tgithub.com/spf13/cobra v1.8.0\n', ['github.com/spf13/cobra']],
    ['Gemfile', "gem 'rails'", "gem 'rails'\ngem 'sidekiq', '~> 7.0'", ['sidekiq']],
    ['Cargo.toml', 'edition = "2021"', 'edition = "2024"', []],
    ['package.json', '"version": "1.0.0"', '"version": "1.1.0",\n  "engines": { "node": ">=20" }', []],
  ])('%s', (file, before, after, names) => {
    const found = addedDependencies(edit(`/repo/${file}`, before, after));
    expect(found.flatMap((f) => f.names)).toEqual(names);
  });
});

describe('decisions: the reason in the sentence before, and the user directives', () => {
  it('a limitation followed by a change that says how is a decision; a bare step is not', async () => {
    const entries = [
      said(
        'The generated migration uses ALTER TABLE modify, which SQLite does not support. I need to rewrite it with a table rewrite.',
      ),
      said("The root layout doesn't render flash messages. I'll add a flash display inline in the template."),
      said('The file does not exist. Let me create it.'),
      said("The test isn't passing yet. Let me check the output with more detail."),
    ];
    expect((await descriptions(entries)).map((d) => d[2])).toEqual([
      'I need to rewrite it with a table rewrite.',
      "I'll add a flash display inline in the template.",
    ]);
  });

  it('explicit choices need no reason: decided to, switching to', async () => {
    const entries = [
      said('Decided to keep the parser synchronous.'),
      said("I'm switching to the streaming API for large files."),
      said('Switching branches is not needed here, the change is small.'),
    ];
    expect((await descriptions(entries)).map((d) => d[2])).toEqual([
      'Decided to keep the parser synchronous.',
      "I'm switching to the streaming API for large files.",
    ]);
  });

  it('common shapes of a choice: decided against, going to, a quality it is for, the reason or the way set aside first', async () => {
    const entries = [
      said('Decided against caching here; the data changes too often.'),
      said('Going to use a worker thread for the parsing to keep the UI responsive.'),
      said("I'll keep the old endpoint for backwards compatibility."),
      said('Let me restructure this into two functions for clarity.'),
      said('To avoid breaking existing users, the new flag defaults to off.'),
      said('Instead of mocking the filesystem, the tests use a temp directory.'),
      // a verb of more than one word, in any form: "pull ... into / out of", "open a PR"
      said('Pulling the retry logic out of the handler since it grew too large.'),
      // the same shapes around a look or a step are not choices
      said('Going to check the logs now.'),
      said("I'll update the docs for clarity."),
      said('To make sure everything works, let me run the tests.'),
      said("Instead of guessing, I'll check the logs."),
      said('For clarity, here is what changed.'),
    ];
    const found = await descriptions(entries);
    expect(found.map((d) => d[2])).toEqual(entries.slice(0, 7).map((e) => e.text));
    const kept = (await rules.extract({ entries: [entries[2]!] })).decisions[0];
    expect(kept?.rationale).toBe('backwards compatibility');
  });

  it('a way judged better, a change stated with the way it is made, a plan under its label, kept compatible', async () => {
    const entries = [
      said("I think it's best to parse the dates once at the boundary and pass them around as objects."),
      said('Let me point the test runner at the staging database.'),
      said("I'll rewrite the loader to mirror the Go implementation line for line."),
      said('Switching the cache to use the request path alone as its key.'),
      said('Changing the loader to read the manifest once at start-up.'),
      said('Fix plan: wrap the body in a transaction and retry once on a lock timeout.'),
      said("I'll keep the CLI backwards compatible and add the new flag beside the old one."),
      said("Let's change the main loop to read the sensor every 500 ms and log less."),
      said('Option 2 is better: key the cache on the query alone.'),
      said("I'll store the settings with the confy crate, which handles the platform paths."),
      said('Let me write a small harness so I can call the C implementation from the tests.'),
      said('The fix: flush the counter inside the branch emitter, before the jump itself.'),
      said('A practical fix is a DNS alias in the second namespace, so the short name resolves.'),
      // a look, an edit step and a judgement of asking are none of these
      said("It's best to check the config first."),
      said("It's better to ask the user which branch they mean."),
      said('Let me update the import in main.rs.'),
      said('Let me change the test name.'),
      said('Let me change the fixture to reflect the new field name.'),
      said('Let me add a print so I can see which branch runs.'),
      // what a fix must achieve is not yet the fix
      said("The fix: the branch's count has to reach both paths."),
      // moving about, process steps and looks, however they are worded
      said('Let me change directory to the repo root.'),
      said('Let me switch back to the previous commit to compare.'),
      said('Let me point you at the relevant file.'),
      said('Pointing out that the README at line 40 is outdated.'),
      said('Let me point the browser at the dev server to verify.'),
      said('Let me make sure to set the env var.'),
      said("It's best to restart the dev server after changing the env file."),
      said('Let me build it so I can try it out.'),
    ];
    const found = await descriptions(entries);
    expect(found.map((d) => d[2])).toEqual(entries.slice(0, 13).map((e) => e.text));
  });

  it('a choice the message states whole is kept over the sentence that announces it with a colon', async () => {
    const entries = [
      said(
        'Option 3 (one table per tab) seems best because:\n\nInstead of one shared file, keep one file per terminal tab so sessions never collide.',
      ),
    ];
    expect((await descriptions(entries)).map((d) => d[2])).toEqual([
      'Instead of one shared file, keep one file per terminal tab so sessions never collide.',
    ]);
  });

  it("the user's directives on how to work are decisions; requests and questions are not", async () => {
    const entries = [
      user('TODO is not acceptable, implementation must be full.'),
      user("Don't use mocks for the database, use the real SQLite file."),
      user("Let's go with the second option."),
      user("important not to commit changes until the final step, I'll review them first"),
      user('Add a --json flag to the status command.'),
      // a bug report's words are no directive
      user("I get 'Field must not be empty' when I submit the form"),
      user('The API returned 400: limit must not exceed 100'),
      user('Should we use Postgres instead?'),
      user('<command-name>/clear</command-name>'),
    ];
    expect((await descriptions(entries)).map((d) => [d[1], d[2]])).toEqual([
      ['approach', 'TODO is not acceptable, implementation must be full.'],
      ['approach', "Don't use mocks for the database, use the real SQLite file."],
      ['approach', "Let's go with the second option."],
      ['approach', "important not to commit changes until the final step, I'll review them first"],
    ]);
  });

  it('the words a call is declined with are a directive when they refuse it or say what instead', async () => {
    const declined = (id: string, words: string | null) =>
      tool(
        id,
        'Bash',
        { command: 'git mv migrations/001.sql migrations/0001_init.sql' },
        `The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). ${
          words === null
            ? 'STOP what you are doing and wait for the user to tell you how to proceed.'
            : `To tell you how to proceed, the user said:\n${words}`
        }`,
        1,
      );
    const entries = [
      ...declined('a', 'no, the migrations are owned by the DBA team: leave them as they are'),
      ...declined('b', 'use pnpm here'),
      ...declined('c', null),
      ...declined('d', 'what does this command do?'),
      ...declined('e', 'show me the diff first'),
    ];
    expect((await descriptions(entries)).map((d) => [d[1], d[2]])).toEqual([
      ['approach', 'no, the migrations are owned by the DBA team: leave them as they are'],
      ['approach', 'use pnpm here'],
    ]);
  });

  it("keeps a long directive to 300 characters, cut at a word's end with an ellipsis", async () => {
    const long = `Don't use mocks for the database, ${'use the real SQLite file the tests create, '.repeat(8)}always.`;
    const [only] = await descriptions([user(long)]);
    const kept = String(only?.[2] ?? '');
    expect(kept.endsWith('…') && kept.length <= 300).toBe(true);
    // the words before the ellipsis are the directive's own, up to a word's end
    expect(long.startsWith(kept.slice(0, -1)) && long[kept.length - 1] === ' ').toBe(true);
  });
});

describe('errors: failing CI checks read with gh', () => {
  it('reads gh JSON, its tab table and name: STATE lines', () => {
    expect(
      ciChecks(
        '{"conclusion":"FAILURE","name":"type-check","status":"COMPLETED"},{"name":"lint","conclusion":"SUCCESS"}',
      ),
    ).toEqual([
      { name: 'type-check', status: 'fail' },
      { name: 'lint', status: 'pass' },
    ]);
    expect(ciChecks('test (3.12)\tfail\t2m\thttps://x\nlint\tpass\t1m\thttps://y')).toEqual([
      { name: 'test (3.12)', status: 'fail' },
      { name: 'lint', status: 'pass' },
    ]);
    expect(ciChecks('type-check: SUCCESS\nclaude-review: IN_PROGRESS')).toEqual([
      { name: 'type-check', status: 'pass' },
    ]);
  });

  it('one error per turn, fixed when the same check passes later', async () => {
    const view = (id: string, out: string) =>
      tool(id, 'Bash', { command: `gh pr view 1 --json statusCheckRollup` }, out, 0);
    const entries = [
      user('check the PRs'),
      ...view('a', '{"name":"type-check","conclusion":"FAILURE"}'),
      ...tool(
        'b',
        'Bash',
        { command: 'gh run list --limit 3 --json name,conclusion' },
        '{"conclusion":"failure","name":"CI"}',
        0,
      ),
      user('fix it'),
      ...tool('c', 'Bash', { command: 'gh pr checks 2' }, 'type-check\tpass\t1m\thttps://x', 0),
    ];
    const { errors } = await rules.extract({ entries });
    expect(errors.map((e) => [e.error_type, e.error_message, e.resolution])).toEqual([
      ['ci_failure', 'CI check failed: type-check', 'fixed'],
    ]);
    const grep = tool(
      'g',
      'Bash',
      { command: 'rg -n "conclusion" .github' },
      '{"name":"x","conclusion":"failure"}',
      0,
    );
    expect((await rules.extract({ entries: grep })).errors).toEqual([]);
  });
});

describe("tasks: Codex code mode's update_plan inside a cell", () => {
  it('reads the plan a cell sets and replays it like update_plan', () => {
    const code =
      'const r = await tools.update_plan({explanation:"done",plan:[\n  {step:"Resolve the scope",status:"completed"},\n  {step:"Report \\"findings\\"",status:"in_progress"}\n]});\ntext(r);';
    expect(planInCell(code)).toEqual({
      plan: [
        { step: 'Resolve the scope', status: 'completed' },
        { step: 'Report "findings"', status: 'in_progress' },
      ],
    });
    expect(planInCell('const r = await tools.exec_command({"cmd":"ls"});')).toBeNull();
    const facts = readSession(tool('x', 'exec', code, '{}'));
    expect(facts.tasks).toEqual([
      { content: 'Resolve the scope', status: 'completed' },
      { content: 'Report "findings"', status: 'in_progress' },
    ]);
  });
});
