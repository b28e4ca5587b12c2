import { describe, expect, it } from 'vitest';
import { transcriptFormats } from '../agents/transcript-types.js';
import { readFromActor } from './actors.js';

describe('readFromActor: who acts in records read from an agent', () => {
  it('names the agent whose transcript format it is, whoever reads it', () => {
    expect(readFromActor({ format: 'claude-code-transcript' })).toBe('claude-code');
    expect(readFromActor({ format: 'claude-code-stream-json' })).toBe('claude-code');
    expect(readFromActor({ format: 'codex-rollout' })).toBe('codex');
    expect(readFromActor({ format: 'codex-exec-json' })).toBe('codex');
    // a format added to the parsers names its agent too
    for (const format of transcriptFormats) expect(readFromActor({ format }), format).not.toBeNull();
  });

  it("names a run's agent by its profile, as the run's live output is recorded, over its output's format", () => {
    expect(readFromActor({ writer: 'claude-code' })).toBe('claude-code');
    expect(readFromActor({ writer: 'my claude', format: 'claude-code-stream-json' })).toBe('my-claude');
  });

  it('leaves a format of no agent Baton knows, or none, to the reader', () => {
    expect(readFromActor({ format: 'gemini-session' })).toBeNull();
    expect(readFromActor({ format: 'toString' })).toBeNull();
    expect(readFromActor({})).toBeNull();
  });
});
