import { describe, expect, it } from 'vitest';
import {
  laneProgress,
  nextTask,
  progressLabel,
  progressPercent,
  runnableTasks,
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

  it('says progress in whole percent of the tasks done, 0 without tasks', () => {
    expect([0, 1, 2, 3].map((done) => progressPercent({ done, total: 3 }))).toEqual([0, 33, 67, 100]);
    expect(progressPercent({ done: 0, total: 0 })).toBe(0);
  });

  it('says progress with the skipped and the failed tasks apart', () => {
    expect(progressLabel({ done: 3, total: 6, skipped: 1, failed: 2 })).toBe('2/6 done, 1 skipped, 2 failed');
    expect(progressLabel({ done: 1, total: 2, skipped: 0, failed: 0 }, '')).toBe('1/2');
  });
});
