import { describe, expect, it } from 'vitest';
import { classifySideEffect } from './classify-side-effect.js';

describe('side effects of completed tool actions', () => {
  it("takes Anthropic's text editor tool for a write unless it only viewed the file", () => {
    const editor = (command: string) => ({
      name: 'str_replace_based_edit_tool',
      input: { command, path: '/w/README.md' },
      is_error: null,
    });
    expect(classifySideEffect(editor('view'))).toBeNull();
    expect(classifySideEffect(editor('str_replace'))).toEqual({
      kind: 'file_write',
      summary: 'str_replace_based_edit_tool /w/README.md',
    });
    expect(
      classifySideEffect({
        name: 'str_replace_editor',
        input: { command: 'create', path: '/w/a.md' },
        is_error: null,
      }),
    ).toEqual({
      kind: 'file_write',
      summary: 'str_replace_editor /w/a.md',
    });
    expect(
      classifySideEffect({ name: 'Bash', input: { command: 'git push origin main' }, is_error: null })?.kind,
    ).toBe('push');
  });
});
