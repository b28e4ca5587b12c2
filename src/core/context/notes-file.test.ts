import { describe, expect, it } from 'vitest';
import { bareSnapshot } from '../../../test/helpers/session-snapshot.js';
import { countTokens } from '../../tokens/count-tokens.js';
import { fitResumeContext } from './fit-budget.js';
import { compileResumeContext } from './resume-context.js';
import { isNotesFile, notesFileOf } from './notes-file.js';

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
    const snap = bareSnapshot({
      created_at: at,
      issue: { id: 'ISSUE-1', title: 'Fix the rename on SMB', description: 'Renames fail on SMB mounts.' },
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
    });
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
