// A child of test/disk/registry-lock.test.ts: updates sessions.json `times` times, each for a new workflow of its
// own, through the mirror's own `updateRegistry` (dist/), as several Baton processes on one worktree do.
import { DiskMirror } from '../../dist/disk/index.js';

const [runsDir, name, times] = process.argv.slice(2);
const mirror = new DiskMirror(/** no store needed for the registry */ null, { runsDir });
const at = new Date().toISOString();
for (let k = 0; k < Number(times); k++) {
  mirror.updateRegistry({
    id: `wf-${name}-${k}`,
    title: `${name} ${k}`,
    status: 'in_progress',
    created_at: at,
    updated_at: at,
    tasks: [],
    sessions: [],
    checkpoints: [],
    git_start: null,
    worktree: '/',
  });
}
