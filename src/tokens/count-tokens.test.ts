import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../test/helpers/corpus.js';
import { countTokens } from './count-tokens.js';

// js-tiktoken (a development dependency) is the reference: Baton ships only its o200k vocabulary (vendor/).
const reference = new Tiktoken(o200k);
const expected = (text: string) => reference.encode(text, [], []).length;

describe('countTokens (o200k_base from vendor/)', () => {
  it('counts exactly as js-tiktoken on real transcripts, hook inputs and stream output', () => {
    for (const file of [
      'claude-code/spotter/short.jsonl',
      'claude-code/spotter/tool_heavy.jsonl',
      'codex/claude-code-transcripts/sample_codex_session.jsonl',
      'stream-json/claude-agent-sdk-gleam/golden/basic_query.ndjson',
      'hooks/serverless-plugins/user_prompt_submit.json',
      'gemini/codemie-code/session-2026-01-16T11-01-file-ops-37b7abef.json',
    ]) {
      const text = readCorpus(file);
      expect(countTokens(text), file).toBe(expected(text));
      // Line by line too: many short pieces, as a compiled context is made of.
      for (const line of text.split('\n').slice(0, 50)) expect(countTokens(line)).toBe(expected(line));
    }
  });

  it('counts exactly as js-tiktoken on any text (special-token text counted as plain text)', () => {
    const pieces = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(
        '<|endoftext|>',
        '  \n\n',
        '\t',
        '1234567',
        "it's",
        'ÄÖÜ straße',
        '日本語のテキスト',
        '🙂👍🏽',
      ),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        expect(countTokens(text)).toBe(expected(text));
      }),
      { numRuns: 300 },
    );
  });

  it('counts the same when its memo of pieces is full and emptied (more distinct words than it keeps)', () => {
    // 60,000 distinct words (base 26, in letters): more pieces than the counter keeps (50,000)
    const word = (i: number): string =>
      (i < 26 ? '' : word(Math.floor(i / 26) - 1)) + 'abcdefghijklmnopqrstuvwxyz'[i % 26];
    const text = Array.from({ length: 60_000 }, (_, i) => ` q${word(i)}`).join('');
    expect(countTokens(text)).toBe(expected(text));
    expect(countTokens(text)).toBe(expected(text));
  });

  it('reads the vocabulary only when a count is first asked for', () => {
    const module = fileURLToPath(new URL('../../dist/tokens/count-tokens.js', import.meta.url));
    // the files read, seen through node:fs (whose named exports the module imports are synced to the patched one)
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const read = [];
      const readFileSync = fs.readFileSync;
      fs.readFileSync = (file, ...rest) => (read.push(String(file)), readFileSync(file, ...rest));
      syncBuiltinESMExports();
      const { countTokens } = await import(${JSON.stringify(module)});
      const loaded = () => read.some((f) => f.endsWith('o200k_base.cjs'));
      const before = loaded();
      const n = countTokens('hello world');
      console.log(JSON.stringify({ before, after: loaded(), n }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ before: false, after: true, n: 2 });
  });
});
