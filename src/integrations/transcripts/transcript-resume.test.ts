import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/helpers/corpus.js';
import { parseSource, type TranscriptSource } from './transcript-import.js';
import { continueParse, readTail } from './transcript-resume.js';

const files: [string, TranscriptSource][] = [
  ['claude-code/codemie-code-2/session-196820da.jsonl', 'claude-code'],
  ['claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl', 'claude-code'],
  ['codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl', 'codex'],
];

describe('reading a transcript from where the last import stopped', () => {
  for (const [rel, format] of files)
    it(`gives the entries and usage of a whole read: ${rel.split('/')[1]} (${format})`, async () => {
      const text = readFileSync(corpusPath(rel), 'utf8');
      const whole = parseSource(text, format);
      const path = join(mkdtempSync(join(tmpdir(), 'baton-tail-')), 't.jsonl');
      writeFileSync(path, text);
      const lines = text.split('\n');
      for (const cut of [1, Math.floor(lines.length / 3), Math.floor((2 * lines.length) / 3)]) {
        const headText = `${lines.slice(0, cut).join('\n')}\n`;
        const head = parseSource(headText, format);
        const byte = Buffer.byteLength(headText);
        const tail = await readTail(path, byte);
        expect(tail.end).toBe(
          Buffer.byteLength(text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1)),
        );
        const resumed = continueParse(parseSource(tail.text, format), {
          byte,
          line: head.lines,
          session_key: 'k',
          usage: head.usage,
          model: head.model,
          started_at: head.started_at,
        });
        const key = (e: { line: number; kind: string; role: string | null; text: string }) =>
          `${e.line} ${e.kind} ${e.role} ${e.text.slice(0, 80)}`;
        expect(resumed.lines).toBe(whole.lines);
        // Every entry of the whole read is there; the only extra one may be a line that repeats what the agent
        // wrote just before the cut (Codex writes a message twice, and the whole read keeps it once).
        const want = whole.entries.filter((e) => e.line > head.lines).map(key);
        const got = resumed.entries.map(key);
        const extra = got.filter((k) => !want.includes(k));
        expect(got.filter((k) => want.includes(k))).toEqual(want);
        expect(extra.length).toBeLessThanOrEqual(1);
        const said = new Set(head.entries.map((e) => e.text.slice(0, 80)));
        for (const k of extra) expect(said.has(k.split(' ').slice(3).join(' '))).toBe(true);
        expect(resumed.model).toBe(whole.model);
        expect(resumed.started_at).toBe(whole.started_at);
        // A model call whose lines straddle the cut is counted on both sides: at most one call more.
        expect(resumed.usage.llm_calls - whole.usage.llm_calls).toBeGreaterThanOrEqual(0);
        expect(resumed.usage.llm_calls - whole.usage.llm_calls).toBeLessThanOrEqual(1);
        expect(resumed.usage.tool_calls).toBe(whole.usage.tool_calls);
        expect(resumed.usage.context_tokens).toBe(whole.usage.context_tokens);
      }
    });

  it('leaves a line still being written for the next import', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'baton-tail-')), 't.jsonl');
    writeFileSync(path, '{"a":1}\n{"b":2}\n{"c":');
    expect(await readTail(path, 8)).toEqual({ text: '{"b":2}\n', end: 16 });
    expect(await readTail(path, 16)).toEqual({ text: '', end: 16 });
    expect(await readTail(path, 99)).toEqual({ text: '', end: 99 });
  });
});
