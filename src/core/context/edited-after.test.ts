import { describe, expect, it } from 'vitest';
import { editedAfter } from './edited-after.js';

const error = (error_message: string) => ({ error_message, timestamp: '2026-01-01T10:00:00.000Z' });
const write = (summary: string, timestamp = '2026-01-01T10:05:00.000Z') => ({
  kind: 'file_write',
  timestamp,
  summary,
});

describe('the file an open error names that the session changed after it', () => {
  it('is found by its path or its name, in the forms compilers and runners print', () => {
    const go = error('`go test ./...`: cmd/cli/integration_test/hooks.go:312:24: undefined: strings');
    expect(editedAfter(go, [write('edited /Users/a/cli/cmd/cli/integration_test/hooks.go')])).toBe(
      'cmd/cli/integration_test/hooks.go',
    );
    const py = error('Traceback (most recent call last):\n  File "./app/models.py", line 3, in <module>');
    expect(editedAfter(py, [write('edited app/models.py')])).toBe('./app/models.py');
    const ts = error('FAIL  src/auth.test.ts > logs in (AssertionError)');
    expect(editedAfter(ts, [write('created src/other.ts'), write('edited src/auth.test.ts')])).toBe(
      'src/auth.test.ts',
    );
  });

  it('is none when the file was changed before the error, or another file of the same name after it', () => {
    const go = error('hooks.go:312:24: undefined: strings');
    expect(editedAfter(go, [write('edited hooks.go', '2026-01-01T09:59:00.000Z')])).toBeNull();
    expect(editedAfter(go, [write('edited webhooks.go')])).toBeNull();
    const nested = error('cmd/a/hooks.go:1: syntax error');
    expect(editedAfter(nested, [write('edited cmd/b/hooks.go')])).toBeNull();
    // a version or an abbreviation is no file
    expect(editedAfter(error('requires node 20.11 (e.g. nvm use)'), [write('edited e.g')])).toBeNull();
  });
});
