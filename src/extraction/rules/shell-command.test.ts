import { describe, expect, it } from 'vitest';
import { oneLineCommand } from './shell-command.js';

describe('oneLineCommand', () => {
  it('joins separate lines with "; " and continued ones with a space', () => {
    expect(oneLineCommand('git status --short\nhk fix -S pkl-format\n\ngit diff --check')).toBe(
      'git status --short; hk fix -S pkl-format; git diff --check',
    );
    expect(oneLineCommand('cargo test \\\n  --workspace \\\n  -- --nocapture')).toBe(
      'cargo test --workspace -- --nocapture',
    );
    expect(oneLineCommand('npm run build &&\n  npm test\n  | tail -5')).toBe(
      'npm run build && npm test | tail -5',
    );
    expect(oneLineCommand('if [ -x bin/app ]; then\n  bin/app\nelse\n  make\nfi')).toBe(
      'if [ -x bin/app ]; then bin/app; else make; fi',
    );
    expect(oneLineCommand('npm test')).toBe('npm test');
  });
});
