import { describe, expect, it } from 'vitest';
import { bareSnapshot } from '../../../test/helpers/session-snapshot.js';
import type { Issue } from '../schemas/workflow.js';
import { renderResumeContext } from './render-context.js';
import { compileResumeContext } from './resume-context.js';

/** The lines of the briefing's goal, for a workflow "Fix login" with this issue. */
const goalLines = (issue: Issue) => {
  const md = renderResumeContext(compileResumeContext(bareSnapshot({ title: 'Fix login', issue }), 1));
  const from = md.indexOf('### Goal');
  return md.slice(from, md.indexOf('\n\n', from)).split('\n').slice(1);
};

describe("the briefing's goal says the issue", () => {
  it('as its tracker names it: id, title, then its text', () => {
    expect(goalLines({ id: 'ISSUE-7', title: 'Fix login', description: 'Login fails on Safari.' })).toEqual([
      'ISSUE-7: Fix login',
      'Login fails on Safari.',
    ]);
  });

  it('by its title and text when it has no id (baton create --issue-description), never led by ": "', () => {
    expect(goalLines({ id: '', title: 'Fix login', description: 'Login fails on Safari.' })).toEqual([
      'Fix login',
      'Login fails on Safari.',
    ]);
    // no title (the REST API)
    expect(goalLines({ id: '', title: '', description: 'Login fails on Safari.' })).toEqual([
      'Login fails on Safari.',
    ]);
  });
});
