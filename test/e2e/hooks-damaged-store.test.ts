import { openSync, writeSync, closeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookWorkspace } from '../helpers/hook-workspace.js';

type Json = Record<string, any>;

// Baton's SQLite database damaged (its header overwritten): a damaged file never answers again on its own, so every
// session start says it is damaged and how to get back, not only the first (a lock or a server down mends itself).

describe('session starts while the database is damaged', () => {
  it('each say the file is damaged and the way back; the first says it whole', async () => {
    const { repo, env, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const start = (id: string) =>
      baton(
        ['hook', 'SessionStart'],
        JSON.stringify({ cwd: repo, session_id: id, hook_event_name: 'SessionStart', source: 'startup' }),
      );
    expect((await start('conv-1')).code).toBe(0);
    const db = join(env.BATON_HOME, 'baton.db');
    expect(existsSync(`${db}-wal`) ? 'a WAL left' : 'closed').toBe('closed');
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
    closeSync(fd);

    const first = await start('conv-2');
    expect(first.code).toBe(0);
    const told = (JSON.parse(first.stdout) as Json).systemMessage as string;
    expect(told).toContain('file is not a database');
    expect(told).toContain(`mv ${db} ${db}.damaged`);
    expect(told).toContain('baton rebuild --from-disk');

    // the next session start: the same outage, said briefly, but as damage with its way back
    for (const id of ['conv-3', 'conv-4']) {
      const again = await start(id);
      expect(again.code).toBe(0);
      const line = (JSON.parse(again.stdout) as Json).systemMessage as string;
      expect(line).toMatch(/^Baton still cannot open its database \(since \d{4}-\d\d-\d\d \d\d:\d\d UTC\): /);
      expect(line).toContain(`${db} is damaged and does not mend on its own`);
      expect(line).toContain(`\`mv ${db} ${db}.damaged\``);
      expect(line).toContain('`baton rebuild --from-disk <worktree>`');
      expect(line).not.toContain('still cannot reach its store');
    }
  }, 60_000);
});
