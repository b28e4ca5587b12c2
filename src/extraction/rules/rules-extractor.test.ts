import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { parseTranscript } from '../../agents/parse-transcript.js';
import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { DecisionDraft, ErrorDraft } from '../extractor.js';
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
    expect(errors[0]?.error_message).toContain('FAIL src/x.test.ts');
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
    const spotter = await rules.extract({ entries: entriesOf('claude-code/spotter/short.jsonl') });
    expect(spotter.errors.map((e) => [e.evidence_line, e.error_type, e.resolution])).toEqual([
      [11, 'tool_rejected', 'unresolved'],
      [12, 'tool_rejected', 'unresolved'],
    ]);
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
    ];
    const { decisions } = await rules.extract({ entries });
    expect(decisions.map((d) => DecisionDraft.parse(d).decision_type)).toEqual([
      'approach',
      'workaround',
      'skip',
      'clarification',
    ]);
    expect(decisions[0]?.rationale).toBe('it is already a dependency');
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
