import { describe, expect, it } from 'vitest';
import {
  currentTask,
  laneProgress,
  nextTask,
  progressLabel,
  progressPercent,
  runnableTasks,
  taskCounts,
  validateTaskGraph,
} from './task-graph.js';
import type { Task, TaskSpec } from './schemas/workflow.js';

const spec = (id: string, deps: string[] = [], lane = 0): TaskSpec => ({
  id,
  title: id,
  description: '',
  deps,
  lane,
});
const task = (id: string, status: Task['status'], deps: string[] = [], lane = 0): Task => ({
  ...spec(id, deps, lane),
  status,
  started_at: null,
  ended_at: null,
  session_number: null,
  note: null,
});

describe('task graph', () => {
  it('refuses duplicate ids, unknown dependencies and cycles', () => {
    expect(() => validateTaskGraph([spec('A'), spec('A')])).toThrow(/declared twice/);
    expect(() => validateTaskGraph([spec('A', ['B'])])).toThrow(/unknown task B/);
    expect(() => validateTaskGraph([spec('A', ['C']), spec('B', ['A']), spec('C', ['B'])])).toThrow(
      /cycle: A -> C -> B -> A/,
    );
    expect(validateTaskGraph([spec('A'), spec('B', ['A'])])).toHaveLength(2);
  });

  it('runs tasks whose dependencies are done, never blocked or running ones', () => {
    const tasks = [
      task('A', 'done'),
      task('B', 'pending', ['A']),
      task('C', 'pending', ['B']),
      task('D', 'blocked'),
      task('E', 'in_progress'),
    ];
    expect(runnableTasks(tasks).map((t) => t.id)).toEqual(['B']);
    expect(nextTask(tasks)?.id).toBe('E');
  });

  it('takes of the tasks in progress the one started last: the one before was left in progress as the agent moved on', () => {
    const at = (t: Task, started_at: string | null) => ({ ...t, started_at });
    const tasks = [
      at(task('T1', 'in_progress'), '2026-01-01T10:00:00.000Z'),
      at(task('T2', 'in_progress'), '2026-01-01T11:00:00.000Z'),
      at(task('T3', 'pending'), null),
    ];
    expect(currentTask(tasks)?.id).toBe('T2');
    expect(nextTask(tasks)?.id).toBe('T2');
    // among equals (no start recorded, or the same), the first listed
    expect(currentTask([at(tasks[0]!, null), at(tasks[1]!, null)])?.id).toBe('T1');
    expect(currentTask([at(tasks[1]!, '2026-01-01T10:00:00.000Z'), tasks[0]!])?.id).toBe('T2');
    expect(currentTask([tasks[2]!])).toBeNull();
    // an earlier lane finishes first, whatever was started since in a later one
    const later = { ...at(task('D1', 'in_progress', [], 1), '2026-01-01T12:00:00.000Z') };
    expect(currentTask([...tasks, later])?.id).toBe('T2');
  });

  it('retries failed tasks and treats skipped dependencies as satisfied', () => {
    const tasks = [task('A', 'skipped'), task('B', 'failed', ['A'])];
    expect(runnableTasks(tasks).map((t) => t.id)).toEqual(['B']);
  });

  it('finishes earlier lanes first (bootstrap before development)', () => {
    const tasks = [task('B1', 'done', [], 0), task('B2', 'pending', [], 0), task('D1', 'pending', [], 1)];
    expect(runnableTasks(tasks).map((t) => t.id)).toEqual(['B2']);
    expect(runnableTasks([...tasks.slice(0, 1), task('B2', 'done'), tasks[2]!]).map((t) => t.id)).toEqual([
      'D1',
    ]);
    expect(laneProgress(tasks)).toEqual([
      { lane: 0, done: 1, total: 2 },
      { lane: 1, done: 0, total: 1 },
    ]);
  });

  it('says progress in whole percent of the tasks finished, 0 without tasks', () => {
    expect([0, 1, 2, 3].map((finished) => progressPercent({ finished, total: 3 }))).toEqual([0, 33, 67, 100]);
    expect(progressPercent({ finished: 0, total: 0 })).toBe(0);
  });

  it('counts a skipped task as skipped and finished, never as done', () => {
    const c = taskCounts(
      (['done', 'done', 'done', 'skipped', 'skipped', 'pending'] as const).map((status, i) =>
        task(`T${i}`, status),
      ),
    );
    expect(c).toMatchObject({ total: 6, done: 3, skipped: 2, finished: 5, remaining: 1 });
    expect(progressLabel(c, '')).toBe('3/6, 2 skipped');
    expect(progressPercent(c)).toBe(83);
  });

  it('says progress with the skipped and the failed tasks apart', () => {
    expect(progressLabel({ done: 2, total: 6, skipped: 1, failed: 2 })).toBe('2/6 done, 1 skipped, 2 failed');
    expect(progressLabel({ done: 1, total: 2, skipped: 0, failed: 0 }, '')).toBe('1/2');
  });
});
