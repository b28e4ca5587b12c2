import { describe, expect, it } from 'vitest';
import { parseCorpusLines as parse } from '../../../../test/helpers/corpus-lines.js';
import { findErrors } from './error-rules.js';

/**
 * Codex's multi-agent tools before they had the `collaboration` namespace (spawn_agent, send_input, wait,
 * close_agent): a plain-text answer is a refusal there too. A real refusal (0.1xx, with the namespace) with the
 * namespace removed, as older versions wrote the call.
 */
const lineage = 'codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl';
const older = (line: string) => line.replace('"namespace":"collaboration",', '');

describe('Codex multi-agent calls without a namespace', () => {
  it('spawn_agent answering "collab spawn failed" in plain text is an error, with or without the namespace', () => {
    for (const edit of [older, (l: string) => l]) {
      const errors = findErrors(parse(lineage, [208, 209], edit), null);
      expect(errors.map((e) => [e.evidence_line, e.error_message])).toEqual([
        [209, 'spawn_agent: collab spawn failed: agent thread limit reached'],
      ]);
    }
    expect(older('{"name":"spawn_agent","namespace":"collaboration","call_id":"x"}')).not.toContain(
      'namespace',
    );
  });

  it('a plain-text answer of another tool without a namespace is a result', () => {
    const renamed = (line: string) =>
      older(line).replace('"name":"spawn_agent"', '"name":"list_mcp_resources"');
    expect(findErrors(parse(lineage, [208, 209], renamed), null)).toEqual([]);
  });
});
