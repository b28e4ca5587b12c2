import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';

/** `baton executor serve` reads its port, output bound and host names through the one settings resolver. */
describe('baton executor serve: settings', () => {
  it('a bad value from $BATON_HOME/config.json names the file and key, one from a variable names it', async () => {
    const home = tempDir('baton-exec-settings-');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ executor_port: 'eighty' }));
    const fromFile = await runCli(['executor', 'serve'], { cwd: home, env: { BATON_HOME: home } });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(
      `executor port "eighty" must be a whole number from 0 to 65535 (${join(home, 'config.json')}, key executor_port)`,
    );
    const fromVariable = await runCli(['executor', 'serve', '--port', '0'], {
      cwd: home,
      env: { BATON_HOME: home, BATON_EXECUTOR_MAX_OUTPUT: '10' },
    });
    expect(fromVariable.code).toBe(2);
    expect(fromVariable.stderr).toContain(
      'executor max output "10" must be a whole number of characters from 1024 to 1073741824 (option --max-output, variable BATON_EXECUTOR_MAX_OUTPUT)',
    );
  });
});
