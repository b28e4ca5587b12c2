// A child of test/concurrency/hook-log.test.ts: records `times` hook results of its own in one worktree's hook log,
// through the hooks' own `updateHookLog` (dist/), as hooks of one worktree that end at once do. Each update holds
// the log a little while (a hook's work between reading and writing it), so updates that do not take turns lose
// each other's records.
import { updateHookLog } from '../../dist/integrations/hooks/hook-log.js';

const [path, name, times] = process.argv.slice(2);
/** One update; a lock wait cut short (a holder descheduled on a loaded machine) is tried again: no update is lost. */
const update = (change) => {
  for (;;)
    try {
      return updateHookLog(path, '/repo', change);
    } catch (e) {
      if (e?.code !== 'unavailable') throw e;
    }
};
for (let k = 0; k < Number(times); k++) {
  update((log) => {
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
