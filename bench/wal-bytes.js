import { mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';

const entry = (i) => ({
  kind: 'history',
  text: `step ${i}: ran the tests, 3 failing`,
  task_id: null,
  source: 'bench',
});

/**
 * The bytes one commit of `perCommit` history events adds to a SQLite WAL (its pages and their frame headers),
 * on a fresh file and before the WAL's first checkpoint, so that the file only grows while it is measured.
 * `open(path)` gives a service on a new SQLite file at `path`.
 */
export async function walBytesPerCommit(open, dir, perCommit) {
  const file = join(mkdtempSync(join(dir, 'wal-')), 'bench.db');
  const svc = await open(file);
  const wf = await svc.create({
    title: 'wal size',
    tasks: [{ id: 'T1', title: 'task 1', deps: [] }],
    worktree: dir,
  });
  const ref = { workflowId: wf.id };
  let i = 0;
  const commit = () =>
    perCommit === 1
      ? svc.record(ref, entry(i++))
      : svc.recordBatch(
          ref,
          Array.from({ length: perCommit }, () => entry(i++)),
        );
  await commit();
  const commits = perCommit === 1 ? 100 : 20; // well under the 10,000 pages at which the WAL is first checkpointed
  const before = statSync(`${file}-wal`).size;
  for (let k = 0; k < commits; k++) await commit();
  const bytes = Math.round((statSync(`${file}-wal`).size - before) / commits);
  await svc.store.close();
  return bytes;
}
