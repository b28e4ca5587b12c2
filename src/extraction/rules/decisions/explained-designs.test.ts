import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { RulesExtractor } from '../rules-extractor.js';

/**
 * A choice that an answer about what exists reports (a design recorded before the session) is not the session's
 * decision; the same sentence in a turn that changes something, or in an answer to what to do, is.
 */

const rules = new RulesExtractor();
let line = 0;
const entry = (
  role: TranscriptEntry['role'],
  text: string,
  tool: TranscriptEntry['tool'] = null,
): TranscriptEntry => ({
  line: (line += 1),
  at: null,
  role,
  kind: tool ? 'tool_call' : 'text',
  text,
  truncated: false,
  tool,
  sidechain: false,
});
const call = (name: string, input: Record<string, unknown>) =>
  entry('assistant', name, { id: `t${line + 1}`, name, input, is_error: null, exit_code: null });
const reported =
  'The decision: keep the five stages as a fixed, code-sequenced pipeline rather than agent-decided delegation.';
const found = async (entries: TranscriptEntry[]) =>
  (await rules.extract({ entries })).decisions.map((d) => d.evidence_line);

describe('decisions: an answer about what exists', () => {
  it('reports a recorded design: no decision of this session when the turn only reads and looks', async () => {
    line = 0;
    expect(
      await found([
        entry('user', 'where is "DAG" defined in this project?  what is it referring to?'),
        call('Bash', { command: 'grep -rn "DAG" docs src | head -40' }),
        call('Read', { file_path: 'docs/adr/0008-ingestion.md' }),
        entry('assistant', `Defined in \`docs/adr/0008-ingestion.md\`.\n\n${reported}`),
      ]),
    ).toEqual([]);
  });

  it('states a decision when the turn changes something, or when the user asked what to do', async () => {
    line = 0;
    expect(
      await found([
        entry('user', 'why is the pipeline built this way?'),
        entry('assistant', reported),
        call('Edit', { file_path: 'src/pipeline.py', old_string: 'a', new_string: 'b' }),
        entry('user', 'how should we structure the stages?'),
        entry('assistant', 'I recommend keeping the stages in one process rather than a queue per stage.'),
      ]),
    ).toEqual([2, 5]);
  });
});
