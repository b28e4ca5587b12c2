import { describe, expect, it } from 'vitest';
import { wayAround } from './worked-around.js';

describe('the way round a worked-around error, as its record says it', () => {
  it("is the agent's own words, whether the line it went on at is of the error's transcript or another's", () => {
    const error_message = '`npm ci`: npm error code ECONNREFUSED';
    const words = "I'll install from the vendored tarballs instead.";
    expect(wayAround({ error_message, resolution_notes: `${words} (went on: transcript line 12)` })).toEqual({
      agent_said: words,
    });
    expect(
      wayAround({
        error_message,
        resolution_notes: `${words} (went on: transcript line 8 of /home/u/.codex/sessions/rollout-b.jsonl)`,
      }),
    ).toEqual({ agent_said: words });
  });
});
