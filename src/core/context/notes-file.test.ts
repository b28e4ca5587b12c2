import { describe, expect, it } from 'vitest';
import { countTokens } from '../../tokens/count-tokens.js';
import { fitResumeContext } from './fit-budget.js';
import { compileResumeContext } from './resume-context.js';
import { isNotesFile, notesFileOf } from './notes-file.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { emptyUsage } from '../schemas/records.js';

const write = (summary: string) => ({ kind: 'file_write', summary });

describe('the notes file the session wrote', () => {
  it('is a state, plan, progress, handoff, todo or notes file, or a plan under a plans/ folder', () => {
    for (const p of [
      '/Users/m/app/.planning/STATE.md',
      'PLAN.md',
      'docs/RESUME.md',
      'progress.txt',
      'HANDOFF.md',
      'TODO.md',
      'notes.md',
      'NEXT_STEPS.md',
      '/home/u/.claude/plans/velvety-spinning-otter.md',
      'docs/plans/2026-02-01-login-design.md',
    ])
      expect(isNotesFile(p), p).toBe(true);
    for (const p of [
      'README.md',
      'CLAUDE.md',
      'docs/state-machine.md',
      'src/plan.ts',
      'CHANGELOG.md',
      'src/plans/index.ts',
    ])
      expect(isNotesFile(p), p).toBe(false);
  });

  it('is the last one written, none when it was deleted after or none was written', () => {
    expect(
      notesFileOf([
        write('edited PLAN.md'),
        write('edited src/app.ts'),
        write('edited .planning/STATE.md'),
        { kind: 'push', summary: 'pushed main' },
      ]),
    ).toBe('.planning/STATE.md');
    expect(notesFileOf([write('created TODO.md'), write('deleted TODO.md')])).toBeNull();
    expect(
      notesFileOf([write('edited src/app.ts'), { kind: 'commit', summary: 'edited PLAN.md' }]),
    ).toBeNull();
  });

  it('is named under What to Do Next, the first part dropped for room after where the session was recorded', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const snap: SessionSnapshot = {
      schema_version: 1,
      id: 'snap-1',
      workflow_id: 'wf-1',
      session_number: 1,
      created_at: at,
      trigger: 'manual',
      pause_reason: null,
      through_seq: 10,
      issue: { id: 'ISSUE-1', title: 'Fix the rename on SMB', description: 'Renames fail on SMB mounts.' },
      plan: '',
      tasks: [],
      current_task_id: null,
      next_task_id: null,
      tasks_completed: 0,
      tasks_remaining: 0,
      git_state: null,
      git_note: 'not a git repository',
      decisions: [],
      decisions_total: 0,
      errors: [],
      errors_total: 0,
      reviewer_feedback: [],
      test_state: null,
      usage: emptyUsage(),
      recent_history: [],
      requests: [],
      summaries: { compaction: null, last_message: null },
      warnings: [],
      side_effects: [
        {
          id: 'se1',
          timestamp: at,
          task_id: null,
          kind: 'file_write',
          tool: 'Edit',
          summary: 'edited .planning/STATE.md',
        },
      ],
    };
    const md = fitResumeContext(snap, 2, [], 4000, countTokens).markdown;
    expect(md).toMatch(
      /### What to Do Next\n.+\nRead `\.planning\/STATE\.md` before going on: the state, plan or notes file this work wrote last\./,
    );
    expect(compileResumeContext(snap, 2).next.notes_file).toBe('.planning/STATE.md');
    const tight = fitResumeContext(snap, 2, [], 120, countTokens);
    expect(tight.limits.notes_file).toBe(0);
    expect(tight.markdown).not.toContain('STATE.md` before');
  });
});
