import { describe, expect, it } from 'vitest';
import { assignmentOnly, oneLineCommand } from './shell-command.js';

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

describe('assignmentOnly', () => {
  it('knows a part that only sets variables, whatever its values hold, in a linear time', () => {
    for (const part of ['X=$(go env GOMODCACHE)', 'A=1 B=2 ', `A="x y" B='p q'`, 'A=x=y', 'A=', 'A="open'])
      expect(assignmentOnly.test(part), part).toBe(true);
    for (const part of ['A=1 make', 'X=$(a b) c', 'npm test', '=x'])
      expect(assignmentOnly.test(part), part).toBe(false);
    // each `a=` and each quoted piece could start a new split: 2^40 ways before (the test's timeout, not a clock)
    expect(assignmentOnly.test(`OPTS=${'a=1,'.repeat(40)} make`)).toBe(false);
    expect(assignmentOnly.test(`A=${'"a"'.repeat(40)} make`)).toBe(false);
  });
});
