import { describe, expect, it } from 'vitest';
import { recordRequest } from '../commands/requests.js';
import { foldEvents } from '../fold.js';
import {
  asksForNoWork,
  isAcknowledgement,
  requestKey,
  requestTitle,
  REQUEST_MAX_CHARS,
} from './request-text.js';
import { freshWorkflow } from '../../../test/helpers/fresh-workflow.js';

let n = 0;
const ctx = { now: '2026-03-01T10:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'user' };

const fresh = (issue: { id: string; title: string; description: string } | null = null) =>
  freshWorkflow({ issue }, ctx);

describe('user requests', () => {
  it('makes the first request the issue and keeps every request in order', () => {
    const d = fresh();
    recordRequest(d, {
      text: '  Add a --json flag to `baton list`\n\nIt should print the views.',
      source: 'hook',
    });
    recordRequest(d, { text: 'also sort by date', at: '2026-03-01T10:05:00Z', source: 'claude-code' });
    expect(d.state.issue).toEqual({
      id: d.state.recent_requests?.[0]?.id,
      title: 'Add a --json flag to `baton list`',
      description: 'Add a --json flag to `baton list`\n\nIt should print the views.',
    });
    expect(d.state.recent_requests?.map((r) => r.text)).toEqual([
      'Add a --json flag to `baton list`\n\nIt should print the views.',
      'also sort by date',
    ]);
    expect(d.state.recent_requests?.[1]).toMatchObject({ at: '2026-03-01T10:05:00Z', source: 'claude-code' });
    const rows = d.writes.filter((w) => w.kind === 'request');
    expect(rows.map((r) => (r.data as { text: string }).text)).toEqual([
      'Add a --json flag to `baton list`\n\nIt should print the views.',
      'also sort by date',
    ]);
    // The fold from the events alone gives the same state.
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('names the workflow after the first request that says what to do, not after a go-ahead', () => {
    const d = fresh();
    for (const t of [
      "yep let's do it",
      'OK, continue.',
      'approved',
      'let\u2019s do it',
      'sounds good, go for it',
      'ok 👍',
      'continue where you left off',
      'thanks, keep going',
      // the user's usage limit is over: the work goes on
      'limit reset, continue',
      'Usage limits are back. Please continue where you left off',
      'ok, the rate limit has been lifted',
      // a pick from the agent's menu, by its letter alone
      'p',
      'D',
    ])
      expect(isAcknowledgement(t)).toBe(true);
    for (const t of [
      'Fix it',
      'yes, and also add logging',
      'now write the tests',
      'continue with the parser',
      'reset the limit',
      'limit reset, now add the retry limit to the config',
      'option 2',
      'ls',
      // a no, and a value asked for, are answers
      'n',
      '30',
    ])
      expect(isAcknowledgement(t)).toBe(false);
    recordRequest(d, { text: "yep let's do it", at: '2026-03-01T10:00:00Z' });
    expect(d.state.issue?.title).toBe("yep let's do it");
    recordRequest(d, { text: 'Add a retry to the uploader', at: '2026-03-01T10:01:00Z' });
    expect(d.state.issue?.title).toBe('Add a retry to the uploader');
    // neither a later go-ahead nor one said earlier (a transcript read after the hooks) takes it back
    recordRequest(d, { text: 'ok go on', at: '2026-03-01T10:02:00Z' });
    recordRequest(d, { text: 'sure', at: '2026-03-01T09:00:00Z' });
    expect(d.state.issue?.title).toBe('Add a retry to the uploader');
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('names the workflow after the first request that says what to do, not after a greeting or a look at the agent', () => {
    for (const t of [
      'hi',
      'Hello there!',
      'show tools',
      'What tools do you have?',
      'list mcp servers',
      'what model are you?',
    ])
      expect(asksForNoWork(t), t).toBe(true);
    for (const t of [
      'Fix the tools script',
      'show the models',
      'list the failing tests',
      'test the parser',
      'hi, fix the build',
    ])
      expect(asksForNoWork(t), t).toBe(false);
    const d = fresh();
    recordRequest(d, { text: 'show tools', at: '2026-03-01T10:00:00Z' });
    expect(d.state.issue?.title).toBe('show tools');
    recordRequest(d, { text: 'Port the uploader to streams', at: '2026-03-01T10:01:00Z' });
    expect(d.state.issue?.title).toBe('Port the uploader to streams');
    expect(d.state.recent_requests?.map((r) => r.text)).toEqual([
      'show tools',
      'Port the uploader to streams',
    ]);
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('keeps an issue that was given at creation', () => {
    const d = fresh({ id: 'GH-1', title: 'Given', description: 'd' });
    recordRequest(d, { text: 'do it' });
    expect(d.state.issue?.id).toBe('GH-1');
    expect(d.state.recent_requests).toHaveLength(1);
  });

  it('writes nothing for the same words again, however they are spaced', () => {
    const d = fresh();
    expect(recordRequest(d, { text: 'Fix the flaky test', source: 'hook' })).not.toBeNull();
    const before = d.events.length;
    expect(recordRequest(d, { text: 'Fix  the flaky\ntest ', source: 'claude-code' })).toBeNull();
    expect(d.events.length).toBe(before);
    expect(recordRequest(d, { text: 'Fix the flaky tests' })).not.toBeNull();
  });

  it('records the same words said again later, not the same prompt seen twice (hook, then transcript)', () => {
    const d = fresh();
    const hook = 'claude-code:hook';
    expect(
      recordRequest(d, { text: 'approved', at: '2026-03-01T10:00:01.000Z', source: hook }),
    ).not.toBeNull();
    // the transcript's line of the same prompt (its own clock; a replayed session's may be months before)
    expect(
      recordRequest(d, { text: 'approved', at: '2025-12-01T09:00:00.000Z', source: 'claude-code' }),
    ).toBeNull();
    // approved again, twenty minutes on: a second request, and its two sightings count once
    expect(
      recordRequest(d, { text: 'approved', at: '2026-03-01T10:20:00.000Z', source: hook }),
    ).not.toBeNull();
    expect(
      recordRequest(d, { text: 'approved', at: '2025-12-01T09:20:00.000Z', source: 'claude-code' }),
    ).toBeNull();
    // the same words without a time are the same request
    expect(recordRequest(d, { text: 'approved' })).toBeNull();
    expect(d.state.recent_requests?.map((r) => r.at)).toEqual([
      '2026-03-01T10:00:01.000Z',
      '2026-03-01T10:20:00.000Z',
    ]);
    expect(foldEvents(d.events).state).toEqual(d.state);

    // a transcript alone (no hooks): said twice is two requests, the same line read again is one
    const t = fresh();
    expect(
      recordRequest(t, { text: 'go on', at: '2026-03-01T10:00:00.000Z', source: 'codex' }),
    ).not.toBeNull();
    expect(recordRequest(t, { text: 'go on', at: '2026-03-01T10:00:00.000Z', source: 'codex' })).toBeNull();
    expect(
      recordRequest(t, { text: 'go on', at: '2026-03-01T10:05:00.000Z', source: 'codex' }),
    ).not.toBeNull();
  });

  it('records words said again after they left the recent requests, not an old line read again', () => {
    const d = fresh();
    const at = (min: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + min * 60_000).toISOString();
    recordRequest(d, { text: 'run the tests again', at: at(0), source: 'codex' });
    for (let i = 1; i <= 12; i++) recordRequest(d, { text: `step ${i}`, at: at(i), source: 'codex' });
    expect(d.state.recent_requests?.some((r) => r.text === 'run the tests again')).toBe(false);
    // the first line read again (as old as it was): the same request
    expect(recordRequest(d, { text: 'run the tests again', at: at(0), source: 'codex' })).toBeNull();
    // said again, later than every recent request: a new one, the latest
    expect(recordRequest(d, { text: 'run the tests again', at: at(20), source: 'codex' })).not.toBeNull();
    expect(d.state.recent_requests?.at(-1)?.text).toBe('run the tests again');
    expect(foldEvents(d.events).state).toEqual(d.state);
  });

  it('refuses an empty request and cuts a huge paste with a note', () => {
    const d = fresh();
    expect(() => recordRequest(d, { text: '   ' })).toThrow(/needs text/);
    const r = recordRequest(d, { text: 'x'.repeat(REQUEST_MAX_CHARS + 10) });
    expect(r?.text).toMatch(/^x+\n… \(10 characters not kept here\)\nx+$/);
    expect(r?.text.replace(/\n… .*\n/, '')).toBe('x'.repeat(REQUEST_MAX_CHARS));
  });

  it('keeps the end of a huge paste, where the user says what to do with it, and closes the fence it cuts', () => {
    const log = Array.from(
      { length: 700 },
      (_, i) => `    at query (pool.js:${i}) connection ${i} timed out`,
    );
    const text = `Fix this crash. Here's the log:\n\`\`\`\n${log.join('\n')}\n\`\`\`\nDon't touch the pool size config.`;
    const r = recordRequest(fresh(), { text });
    const kept = r?.text ?? '';
    expect(kept.length).toBeLessThan(REQUEST_MAX_CHARS + 100);
    expect(kept.startsWith("Fix this crash. Here's the log:\n```\n    at query (pool.js:0)")).toBe(true);
    expect(kept.endsWith("```\nDon't touch the pool size config.")).toBe(true);
    // cut at line ends, the fence closed before the note and opened again after it
    expect(kept).toMatch(
      /timed out\n```\n… \(\d+ characters not kept here\)\n```\n {4}at query \(pool\.js:\d+\)/,
    );
    const [head = '', tail = ''] = kept.split(/\n… \(\d+ characters not kept here\)\n/);
    expect(text.startsWith(head.replace(/\n```$/, ''))).toBe(true);
    expect(text.endsWith(tail.replace(/^```\n/, ''))).toBe(true);
    // a ~~~ fence is closed and opened again as ~~~
    const tilde = recordRequest(fresh(), { text: text.replace(/```/g, '~~~') })?.text ?? '';
    expect(tilde).toMatch(/timed out\n~~~\n… \(\d+ characters not kept here\)\n~~~\n {4}at query/);
    expect(tilde).not.toContain('```');
    // so is a four-backtick one, which three do not close
    const four = recordRequest(fresh(), { text: text.replace(/```/g, '````') })?.text ?? '';
    expect(four).toMatch(/timed out\n````\n… \(\d+ characters not kept here\)\n````\n {4}at query/);
    // a cut outside any fence adds none
    const prose = Array.from({ length: 900 }, (_, i) => `Point ${i}: keep the pool as it is.`).join('\n');
    const p = recordRequest(fresh(), { text: prose })?.text ?? '';
    expect(p).not.toContain('```');
    expect(p.endsWith('Point 899: keep the pool as it is.')).toBe(true);
  });

  it('titles a request by its first line, cut at a word', () => {
    expect(requestTitle('\n# Heading here\nbody')).toBe('Heading here');
    // links as they read, not their markdown (a pasted address, as Codex Desktop writes it; a link's text)
    const url = 'https://github.com/jdx/hk/discussions/1074';
    expect(requestTitle(`investigate [${url}](${url})`)).toBe(`investigate ${url}`);
    expect(requestTitle('review [#1075](https://github.com/jdx/hk/pull/1075) again')).toBe(
      'review #1075 again',
    );
    // the opening words that say nothing of the work: Claude Code's thinking keyword, a greeting
    expect(requestTitle('ultrathink there is logic that tracks files in the claude folder')).toBe(
      'there is logic that tracks files in the claude folder',
    );
    expect(requestTitle('Hi Claude, add a power function to calc.js')).toBe(
      'add a power function to calc.js',
    );
    expect(requestTitle('think hard: why does the build fail?')).toBe('why does the build fail?');
    expect(requestTitle('think hard about the schema')).toBe('think hard about the schema');
    // a link pasted before the ask: the ask first, the link after it
    expect(
      requestTitle('https://github.com/o/blog/actions/runs/332/job/991-- fix the ci issue\ncommit and push'),
    ).toBe('fix the ci issue (https://github.com/o/blog/actions/runs/332/job/991)');
    expect(requestTitle('https://github.com/o/r/issues/12 fix this')).toBe(
      'fix this (https://github.com/o/r/issues/12)',
    );
    expect(requestTitle('https://github.com/o/r/pull/7\n\nreview it')).toBe(
      'review it (https://github.com/o/r/pull/7)',
    );
    expect(requestTitle('https://example.com is down since noon')).toBe(
      'https://example.com is down since noon',
    );
    expect(requestTitle('https://example.com/a.png')).toBe('https://example.com/a.png');
    // a question about where the work stands, then the ask: the ask names the work
    expect(requestTitle('where do things stand? then add a power function to calc.js')).toBe(
      'add a power function to calc.js',
    );
    expect(requestTitle("What's the status? Also fix the flaky login test")).toBe('fix the flaky login test');
    expect(requestTitle('where do things stand?')).toBe('where do things stand?');
    expect(requestTitle('where do things stand in the parser? add tests')).toBe(
      'where do things stand in the parser? add tests',
    );
    // and nothing but them stays the title
    expect(requestTitle('hello!')).toBe('hello!');
    expect(requestTitle('highlight the errors')).toBe('highlight the errors');
    const long = 'word '.repeat(40);
    const t = requestTitle(long);
    expect(t.length).toBeLessThanOrEqual(80);
    expect(t.endsWith('…')).toBe(true);
    // a coordinator's prompt is titled by its task, not by the role it opens with
    expect(
      requestTitle(
        'You are a dispatched worker.\n\n=== COMMANDS ===\nreport once\n\n=== TASK ===\nRename the flag in cli.ts.',
      ),
    ).toBe('Rename the flag in cli.ts.');
    expect(requestKey('a  b')).toBe(requestKey(' a b '));
    expect(requestKey('a b')).not.toBe(requestKey('a c'));
  });
});
