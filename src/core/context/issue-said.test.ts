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

  it('by its text alone when it has no id (baton create --issue-description), never led by ": "', () => {
    // the title baton create fills in is the workflow's: said by the issue's text
    expect(goalLines({ id: '', title: 'Fix login', description: 'Login fails on Safari.' })).toEqual([
      'Login fails on Safari.',
    ]);
    // none at all (the REST API), or a title of its own, said above the text
    expect(goalLines({ id: '', title: '', description: 'Login fails on Safari.' })).toEqual([
      'Login fails on Safari.',
    ]);
    expect(goalLines({ id: '', title: 'Safari login', description: 'It fails.' })).toEqual([
      'Safari login',
      'It fails.',
    ]);
  });
});
