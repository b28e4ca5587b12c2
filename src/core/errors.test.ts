import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorLine } from './errors.js';

describe('errorLine', () => {
  it("names a schema check's failing fields, not the first line of its JSON ('[')", () => {
    const failed = z.object({ usage: z.object({ context_tokens: z.number().int() }) }).safeParse({
      usage: { context_tokens: 1.5 },
    });
    expect(failed.success).toBe(false);
    const line = errorLine(failed.error);
    expect(line).toMatch(/^invalid data: usage\.context_tokens: /);
    expect(line).not.toContain('\n');
  });

  it("keeps another error's first line", () => {
    expect(errorLine(new Error('database is locked\n  at somewhere'))).toBe('database is locked');
    expect(errorLine('plain')).toBe('plain');
  });
});
