import { describe, expect, it } from 'vitest';
import type { Task } from './schemas/index.js';
import { briefingSession } from './briefing-session.js';
import { leftOpen, nextTaskOf, tasksUnderWay } from './task-standing.js';

const task = (id: string, status: Task['status']): Task => ({
  id,
  title: id,
  description: '',
  deps: [],
  lane: 0,
  status,
  started_at: null,
  ended_at: null,
  session_number: null,
  note: null,
});

describe('where the tasks stand for their workflow', () => {
  const tasks = [task('A', 'done'), task('B', 'in_progress'), task('C', 'pending')];

  it('an open workflow goes on with its task under way, and left nothing open', () => {
    const s = { status: 'in_progress' as const, tasks };
    expect(nextTaskOf(s)?.id).toBe('B');
    expect(tasksUnderWay(s).map((t) => t.id)).toEqual(['B']);
    expect(leftOpen(s)).toEqual([]);
  });

  it('a finished one has nothing under way or next: its tasks not done were left open', () => {
    for (const status of ['cancelled', 'completed', 'failed'] as const) {
      const s = { status, tasks };
      expect(nextTaskOf(s)).toBeNull();
      expect(tasksUnderWay(s)).toEqual([]);
      expect(leftOpen(s).map((t) => t.id)).toEqual(['B', 'C']);
    }
  });
});

describe('the session a briefing is addressed to', () => {
  it('is the one a resume starts for a stopped workflow, else the one open (the first before any)', () => {
    expect(briefingSession({ status: 'paused', session_count: 1 })).toBe(2);
    expect(briefingSession({ status: 'interrupted', session_count: 3 })).toBe(4);
    expect(briefingSession({ status: 'in_progress', session_count: 3 })).toBe(3);
    expect(briefingSession({ status: 'pending', session_count: 0 })).toBe(1);
    expect(briefingSession({ status: 'cancelled', session_count: 2 })).toBe(2);
  });
});
