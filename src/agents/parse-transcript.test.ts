import { describe, expect, it } from 'vitest';
import { corpusFiles, readCorpus } from '../../test/helpers/corpus.js';
import { detectTranscriptFormat, parseTranscript } from './parse-transcript.js';
import { ParsedTranscript } from './transcript-types.js';

const jsonl = corpusFiles().filter((f) => /\.(jsonl|ndjson)$/.test(f));

describe('every JSONL file of the corpus (holdout excluded)', () => {
  it('finds the files', () => {
    expect(jsonl.length).toBeGreaterThanOrEqual(17);
    expect(jsonl.some((f) => f.startsWith('holdout'))).toBe(false);
  });

  it.each(jsonl)('%s parses without throwing into a valid ParsedTranscript', (file) => {
    const text = readCorpus(file);
    const format = detectTranscriptFormat(text);
    expect(format).not.toBeNull();
    const t = parseTranscript(text);
    expect(ParsedTranscript.parse(t)).toEqual(t);
    expect(t.skipped).toEqual([]);
    expect(t.entries.length).toBeGreaterThan(0);
  });

  it('other corpus files (hooks, gemini, single messages) do not throw either', () => {
    for (const file of corpusFiles().filter((f) => f.endsWith('.json'))) {
      const t = parseTranscript(readCorpus(file));
      expect(t.lines).toBeGreaterThan(0);
    }
  });
});

describe('detectTranscriptFormat', () => {
  it('recognises each format from its first lines', () => {
    expect(detectTranscriptFormat(readCorpus('claude-code/spotter/short.jsonl'))).toBe(
      'claude-code-transcript',
    );
    expect(detectTranscriptFormat(readCorpus('claude-code/codemie-code/session-9eda1058.jsonl'))).toBe(
      'claude-code-transcript',
    );
    expect(
      detectTranscriptFormat(readCorpus('stream-json/claude-agent-sdk-gleam/golden/basic_query.ndjson')),
    ).toBe('claude-code-stream-json');
    expect(
      detectTranscriptFormat(readCorpus('codex/claude-code-transcripts/sample_codex_session.jsonl')),
    ).toBe('codex-rollout');
    expect(detectTranscriptFormat('{"type":"thread.started","thread_id":"x"}')).toBe('codex-exec-json');
    expect(detectTranscriptFormat('nothing here')).toBeNull();
  });
});
