import { describe, expect, it } from 'vitest';
import { unwrapShell } from './split-command.js';

describe('unwrapShell', () => {
  it('takes the script out of a shell launcher: quoted either way, a quote in single quotes, a single word', () => {
    expect(unwrapShell("bash -lc 'npm test -- --run'")).toBe('npm test -- --run');
    expect(unwrapShell('/bin/zsh -c "git status"')).toBe('git status');
    expect(unwrapShell("bash -lc 'echo '\\''hi'\\'' > a.txt'")).toBe("echo 'hi' > a.txt");
    expect(unwrapShell('bash -lc ls')).toBe('ls');
    expect(unwrapShell('sh -c "make"')).toBe('make');
  });

  it('leaves any other command as it is', () => {
    for (const c of ['npm test', 'bash script.sh', 'bash -lc ls && echo done', 'shellcheck -c x.sh'])
      expect(unwrapShell(c)).toBe(c);
  });
});
