import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { parseTranscript } from '../../agents/parse-transcript.js';
import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { DecisionDraft, ErrorDraft } from '../extractor.js';
import { resolveKnown } from './errors/resolve-known.js';
import { RulesExtractor } from './rules-extractor.js';

const entriesOf = (rel: string) => parseTranscript(readCorpus(rel)).entries;
const rules = new RulesExtractor();

let line = 0;
const text = (t: string, role: TranscriptEntry['role'] = 'assistant'): TranscriptEntry => ({
  line: (line += 1),
  at: null,
  role,
  kind: 'text',
  text: t,
  truncated: false,
  tool: null,
  sidechain: false,
});
const shell = (id: string, command: string, exit: number, output = ''): TranscriptEntry[] => [
  {
    ...text(`Bash: ${command}`),
    kind: 'tool_call',
    tool: { id, name: 'Bash', input: { command }, is_error: null, exit_code: null },
  },
  {
    ...text(output),
    role: 'tool',
    kind: 'tool_result',
    tool: { id, name: 'Bash', input: { command }, is_error: exit !== 0, exit_code: exit },
  },
];

describe('rules extractor: errors', () => {
  it("an agent's own error (a dropped stream) is fixed once the agent works again, here or in a later import", async () => {
    const dropped: TranscriptEntry = {
      ...text('stream disconnected before completion: error sending request'),
      role: 'system',
      kind: 'error',
    };
    const alone = await rules.extract({
      entries: [dropped],
      existing: { decisions: [], errors: [] },
      taskId: null,
    });
    expect(alone.errors[0]).toMatchObject({ error_type: 'agent_error', resolution: 'unresolved' });
    const after = [text('Picking up where I stopped: the parser next.'), ...shell('z', 'npm test', 0, 'ok')];
    const on = await rules.extract({
      entries: [dropped, ...after],
      existing: { decisions: [], errors: [] },
      taskId: null,
    });
    expect(on.errors[0]).toMatchObject({ error_type: 'agent_error', resolution: 'fixed' });
    expect(on.errors[0]?.resolution_notes).toMatch(/the agent went on after it \(transcript line \d+\)/);
    const open = [{ id: 'err-1', error_type: 'agent_error', error_message: dropped.text }];
    expect(resolveKnown(open, after)).toEqual([
      expect.objectContaining({ error_id: 'err-1', resolution: 'fixed', line: after[0]!.line }),
    ]);
    expect(resolveKnown(open, [])).toEqual([]);
  });

  it('a usage limit is no error of the work (the session says it stopped on it), in any of its forms', async () => {
    for (const notice of [
      "You've hit your usage limit. Try again in 2 hours.",
      'Claude AI usage limit reached|1795986371',
      "You've hit your session limit · resets 3:40pm (Europe/Paris)",
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error"}}',
    ]) {
      const limit: TranscriptEntry = { ...text(notice), role: 'assistant', kind: 'error' };
      const { errors } = await rules.extract({ entries: [text('Half-way there.'), limit], taskId: null });
      expect(errors, notice).toEqual([]);
    }
  });

  it('finds failed commands with their exit output and infers fixed / workaround / unresolved', async () => {
    const entries = [
      ...shell('a', 'npm test', 1, 'FAIL src/x.test.ts\nError: expected 2 to be 3'),
      ...shell('b', 'npm run build', 2, 'error TS2322: Type string is not assignable'),
      ...shell('c', 'npx tsc --noEmit', 0, ''),
      ...shell('d', 'npm test', 0, 'all passed'),
      ...shell('e', 'curl https://example.invalid', 6, 'curl: (6) Could not resolve host'),
      text('stop here', 'user'),
    ];
    const { errors } = await rules.extract({ entries });
    expect(errors.map((e) => ErrorDraft.parse(e))).toHaveLength(3);
    expect(errors.map((e) => [e.error_type, e.resolution])).toEqual([
      ['test_failure', 'fixed'],
      ['command_failed', 'workaround'],
      ['command_failed', 'unresolved'],
    ]);
    // the reason, not the runner's file banner
    expect(errors[0]?.error_message).toContain('Error: expected 2 to be 3');
  });

  it("reads a coloured test run (vitest colours a pipe where TERM names a terminal) without the terminal's codes", async () => {
    // a Claude Code transcript's Bash call and its result, as vitest 4 printed them through `| tail`
    const output =
      '\n\u001b[1m\u001b[30m\u001b[46m RUN \u001b[49m\u001b[39m\u001b[22m \u001b[36mv4.1.12 \u001b[39m\u001b[90m/w/strutil\u001b[39m\n\n' +
      ' \u001b[31m❯\u001b[39m str.test.js \u001b[2m(\u001b[22m\u001b[2m2 tests\u001b[22m\u001b[2m | \u001b[22m\u001b[31m1 failed\u001b[39m\u001b[2m)\u001b[22m\u001b[32m 16\u001b[2mms\u001b[22m\u001b[39m\n' +
      '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m str.test.js\u001b[2m > \u001b[22mcapitalize\n' +
      '\u001b[31m\u001b[1mTypeError\u001b[22m: capitalize is not a function\u001b[39m\n' +
      '\u001b[36m \u001b[2m❯\u001b[22m str.test.js:\u001b[2m5:35\u001b[22m\u001b[39m\n\n' +
      '\u001b[2m Test Files \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[90m (1)\u001b[39m\n' +
      '\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[1m\u001b[32m1 passed\u001b[39m\u001b[22m\u001b[90m (2)\u001b[39m\n' +
      '\u001b]11;?\u001b\\\u001b[?25h';
    const command = 'npx vitest run 2>&1 | tail -30';
    const common = { sessionId: 's1', cwd: '/w/strutil', version: '2.1.232', isSidechain: false };
    const lines = [
      {
        ...common,
        type: 'assistant',
        uuid: 'a1',
        timestamp: '2026-11-30T05:02:12.000Z',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command } }],
        },
      },
      {
        ...common,
        type: 'user',
        uuid: 'u1',
        timestamp: '2026-11-30T05:02:13.000Z',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: output }],
        },
        toolUseResult: { stdout: output, stderr: '', interrupted: false },
      },
    ];
    const entries = parseTranscript(lines.map((l) => JSON.stringify(l)).join('\n') + '\n').entries;
    expect(entries.find((e) => e.kind === 'tool_result')?.text).not.toContain('\u001b');
    const { errors } = await rules.extract({ entries });
    expect(errors.map((e) => [e.error_type, e.error_message])).toEqual([
      [
        'test_failure',
        '`npx vitest run`: FAIL  str.test.js > capitalize: TypeError: capitalize is not a function',
      ],
    ]);
  });

  it('does not treat grep finding nothing as an error, and merges a retried identical failure', async () => {
    const entries = [
      ...shell('a', 'rg -n TODO src', 1, ''),
      ...shell('b', 'make', 2, 'make: *** No rule to make target'),
      ...shell('c', 'make', 2, 'make: *** No rule to make target'),
    ];
    const { errors } = await rules.extract({ entries });
    expect(errors).toHaveLength(1);
  });

  it('reads real failures from the corpus: exit codes, rejections and resolutions', async () => {
    const { errors } = await rules.extract({
      entries: entriesOf(
        'codex/codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl',
      ),
    });
    const ps = errors.find((e) => e.evidence_line === 47);
    expect(ps).toMatchObject({
      error_type: 'command_failed',
      resolution: 'fixed',
      at: '2026-05-11T11:29:28.067Z',
    });
    expect(ps?.error_message).toContain('operation not permitted');
    const browser = errors.filter((e) => e.error_type === 'tool_refused');
    expect(browser.map((e) => e.evidence_line)).toEqual([53, 56]);
    // the policy's words, not the content parts they came in; not to be tried again, and the agent went on another way
    for (const e of browser) {
      expect(e.error_message).toMatch(/^js: Browser Use rejected this action due to browser security policy/);
      expect(e.resolution).toBe('workaround');
    }
  });

  it('leaves expected outcomes out: user declines, probes of missing paths, nothing to commit, the red step', async () => {
    // both tool calls declined by the user: their choice, not a failure
    const declined = await rules.extract({ entries: entriesOf('claude-code/spotter/short.jsonl') });
    expect(declined.errors).toEqual([]);
    // a Read of a guessed path that does not exist answers "is it there?"
    const probe = await rules.extract({
      entries: entriesOf('claude-code/codemie-code/session-3fe1b6bc.jsonl'),
    });
    expect(probe.errors.map((e) => e.evidence_line)).toEqual([100, 120, 136]);
    // the agent announced that the focused test would fail first (TDD red), then made it pass
    const red = await rules.extract({
      entries: entriesOf(
        'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
      ),
    });
    expect(red.errors).toEqual([]);
    const nothing = await rules.extract({
      entries: shell('g', 'git commit -m "wip"', 1, 'On branch main\nnothing to commit, working tree clean'),
    });
    expect(nothing.errors).toEqual([]);
  });

  it("reports a Stop hook's feedback and permission refusals as errors, with the line that explains them", async () => {
    const { errors } = await rules.extract({ entries: entriesOf('stream-json/trackgentic/stream.jsonl') });
    expect(errors.map((e) => [e.evidence_line, e.error_type])).toEqual([
      [10, 'hook_feedback'],
      [19, 'permission_denied'],
      [46, 'permission_denied'],
    ]);
    expect(errors[0]?.error_message).toBe('Stop hook: Check updating your expertise');
    const cut = await rules.extract({
      entries: shell(
        'z',
        'codemie-codex --task x',
        1,
        'Exit code 1\n\nOptions:\n  1. Codex requires compatible models',
      ),
    });
    expect(cut.errors[0]?.error_message).toContain('Codex requires compatible models');
  });
});

describe('rules extractor: decisions', () => {
  it('types explicit statements and keeps the rationale', async () => {
    const entries = [
      text("I'm going with zod for validation because it is already a dependency."),
      text('The tests need a database, so I will use SQLite in memory instead of PostgreSQL.'),
      text("We'll skip the migration for now since nothing reads the old column."),
      text('I interpreted "fast" as p95 under 100 ms.'),
      text('Let me check the config file.'),
      text('The best approach is to:'),
      text('The adapter uses a cache instead of reading the file twice.'),
      text('Now let me run the integration tests to make sure everything works.'),
    ];
    const { decisions } = await rules.extract({ entries });
    expect(decisions.map((d) => DecisionDraft.parse(d).decision_type)).toEqual([
      'library',
      'approach', // "instead of PostgreSQL" with no limitation forcing it: a choice, not a workaround
      'skip',
      'clarification',
    ]);
    expect(decisions[0]?.rationale).toBe('it is already a dependency');
  });

  it('reads the ways agents phrase choices, and not looking, status or deliberation', async () => {
    const said = [
      'Let me create a dedicated file for the interactive pty helpers.',
      'The graph MCP tools are not exposed in this session, so I’m falling back to `rg` for discovery.',
      'This likely means adding the default compaction setting to the generated config.',
      'The first fix I’d try is adding `Commands::Util(_)` to the config-free command list.',
      'Let me also clean up the Python config files since this is now a Rust project.',
      "I'll use a generic approach with an enum.",
    ];
    const not = [
      'The design is now much cleaner and leverages the existing infrastructure.',
      'I’m weighing whether to use an Ash resource versus an Agent.',
      'I’m checking whether the config schema already names the field since the docs are unclear.',
      'If igniter cannot install, fall back to a manual dep entry.',
      'Should I use the existing helper instead?',
      // "in both ... paths" alone was fitted to one session and fires on steps ("I'll add the import in both files.")
      'I’m adding the default object now in both generated config paths: `codemie-code` and `opencode`.',
    ];
    const { decisions } = await rules.extract({ entries: [...said, ...not].map((t) => text(t)) });
    // typographic apostrophes are read as plain ones
    expect(decisions.map((d) => d.description)).toEqual(said.map((t) => t.replace(/’/g, "'")));
  });

  it('reads structured signals: answered questions and added dependencies', async () => {
    const beads = await rules.extract({ entries: entriesOf('claude-code/spotter/subagent.jsonl') });
    expect(beads.decisions.filter((d) => d.evidence_line === 34).map((d) => d.description)).toEqual([
      "Which rig do these beads belong to? (This is a single-app project — should I use 'spotter'?) -> No rig",
      'Which tools should we set up? -> Credo + Dialyxir + mix_audit',
    ]);
    const added = await rules.extract({
      entries: shell('x', 'cd app && npm install zod@4 --save', 0, 'added 1 package'),
    });
    expect(added.decisions).toMatchObject([
      { decision_type: 'library', description: 'Added dependency zod@4' },
    ]);
  });

  it('drops what is already known and keeps to the most recent entries', async () => {
    const entries = [
      text('We decided to use a queue for retries.'),
      text('I chose pnpm workspaces for the monorepo.'),
    ];
    const known = await rules.extract({
      entries,
      existing: { decisions: [{ description: 'Decided to use a queue for the retries' }] },
    });
    expect(known.decisions.map((d) => d.description)).toEqual(['I chose pnpm workspaces for the monorepo.']);
    const latest = await rules.extract({ entries, maxEntries: 1 });
    expect(latest.decisions).toHaveLength(1);
    const history = await rules.extract({
      entries: ['Tried npm test: failed', 'We decided to pin node 20.'],
    });
    expect(history.decisions[0]).toMatchObject({ evidence_line: 2, decision_type: 'approach' });
  });
});
