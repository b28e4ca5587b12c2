import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';

// A `baton serve` killed or crashed is said by the next one of its BATON_HOME, before its startup recovery says what it
// left running; one stopped cleanly is not.

const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

const start = async (home: string) => {
  const s = await startServerProcess(home);
  servers.push(s);
  return s;
};

describe('a server that ended without stopping', () => {
  it('is said by the next server of its home, once; a clean stop leaves nothing to say', async () => {
    const home = tempDir('baton-home-');
    const a = await start(home);
    const marks = join(home, 'serving');
    expect(readdirSync(marks)).toEqual([`${a.child.pid}.json`]);
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));

    const b = await start(home);
    const said = b.stderr().split('\n');
    const gone = said.findIndex((l) => l.includes('ended without stopping'));
    expect(said[gone]).toMatch(
      new RegExp(
        `^baton serve: the \`baton serve\` before this one \\(pid ${a.child.pid}, started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC, ${a.url.replace(/[.]/g, '\\.')}, store \\S+baton\\.db\\) ended without stopping \\(killed, crashed, or the machine went down\\): startup recovery says next what it left running$`,
      ),
    );
    // the recovery line follows it
    expect(said.findIndex((l) => l.includes('startup recovery:'))).toBeGreaterThan(gone);
    expect(readdirSync(marks)).toEqual([`${b.child.pid}.json`]);

    // stopped cleanly: its mark goes with it, and the next server says nothing of it
    await b.stop();
    servers.splice(servers.indexOf(b), 1);
    expect(existsSync(join(marks, `${b.child.pid}.json`))).toBe(false);
    const c = await start(home);
    expect(c.stderr()).not.toContain('ended without stopping');
  });
});
