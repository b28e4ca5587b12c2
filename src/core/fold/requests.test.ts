import { describe, expect, it } from 'vitest';
import { freshWorkflow } from '../../../test/helpers/fresh-workflow.js';

const request = (id: string, at: string | null, text: string) => ({
  type: 'request.recorded' as const,
  data: { request: { id, timestamp: '', at, session_number: 1, text, source: null }, key: id },
});

/** A workflow a hook made: titled by the first request recorded. */
const hooked = () => freshWorkflow({ title: 'Claude Code session on main', titleFromRequest: true });

describe("the user's requests in the order they were said", () => {
  it('a request said before the one the issue came from becomes the issue (hooks set up mid-session)', () => {
    const d = hooked();
    d.emit(request('r-hook', '2026-03-01T10:05:00.000Z', 'Now update the docs'));
    expect(d.state.issue?.description).toBe('Now update the docs');
    // the import of the transcript reads the turns said before the hooks were there
    d.emit(request('r-t1', '2026-03-01T09:00:00.000Z', 'Explain how the CLI parses its flags'));
    d.emit(request('r-t2', '2026-03-01T09:30:00.000Z', 'Add a --json flag'));
    expect(d.state.issue?.description).toBe('Explain how the CLI parses its flags');
    expect(d.state.title).toBe('Explain how the CLI parses its flags');
    expect(d.state.recent_requests?.map((r) => r.id)).toEqual(['r-t1', 'r-t2', 'r-hook']);
    // a later request changes nothing of that, nor one without a time
    d.emit(request('r-late', '2026-03-01T11:00:00.000Z', 'Commit it'));
    d.emit(request('r-none', null, 'And push'));
    expect(d.state.issue?.description).toBe('Explain how the CLI parses its flags');
    expect(d.state.recent_requests?.map((r) => r.id)).toEqual(['r-t1', 'r-t2', 'r-hook', 'r-late', 'r-none']);
  });

  it('an issue the user gave is never replaced by a request, however early', () => {
    const issue = { id: 'ISSUE-4', title: 'Fix login', description: 'Login fails on Safari' };
    const d = freshWorkflow({ title: 'Fix login', issue });
    d.emit(request('r1', '2026-03-01T09:00:00.000Z', 'Look at it'));
    expect(d.state.issue).toEqual(issue);
    expect(d.state.title).toBe('Fix login');
  });
});
