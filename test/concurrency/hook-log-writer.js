// A child of test/concurrency/hook-log.test.ts: records `times` hook results of its own in one worktree's hook log,
// through the hooks' own `updateHookLog` (dist/), as hooks of one worktree that end at once do. Each update holds
// the log a little while (a hook's work between reading and writing it), so updates that do not take turns lose
// each other's records.
import { updateHookLog } from '../../dist/integrations/hooks/hook-log.js';

const [path, name, times] = process.argv.slice(2);
for (let k = 0; k < Number(times); k++) {
  updateHookLog(path, '/repo', (log) => {
    const until = Date.now() + 2;
    while (Date.now() < until);
    log.events[`${name}/${k}`] = {
      at: new Date().toISOString(),
      agent: name,
      event: `${k}`,
      outcome: 'ok',
      note: '',
      ms: 1,
    };
  });
}
