import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

/**
 * A Claude Code transcript without a task list whose last turn was cut off: the user's request, the agent's words and
 * a file written, then `ending` (an API error, a usage limit's notice, the user's interruption), as Claude Code writes
 * them in `~/.claude/projects/`.
 */
function transcript(cwd: string, ending: object[]): string {
  const envelope = { sessionId: 's-cut', cwd, version: '2.1.39', gitBranch: 'main', isSidechain: false };
  const at = (s: number) => `2026-05-01T10:00:${String(s).padStart(2, '0')}.000Z`;
  const lines = [
    {
      type: 'user',
      timestamp: at(1),
      message: { role: 'user', content: 'Add a CSV export to the report page' },
    },
    assistant('m1', at(3), [{ type: 'text', text: 'I will start with the parser, then the writer.' }]),
    assistant('m2', at(4), [
      {
        type: 'tool_use',
        id: 't1',
        name: 'Write',
        input: { file_path: join(cwd, 'parser.ts'), content: 'x\n' },
      },
    ]),
    {
      type: 'user',
      timestamp: at(5),
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: 'File created' }],
      },
    },
    assistant('m3', at(6), [{ type: 'text', text: 'The parser is written; now the writer.' }]),
    ...ending.map((line) => ({ timestamp: at(8), ...line })),
  ];
  const file = join(tempDir('cut-off-'), 's-cut.jsonl');
  writeFileSync(
    file,
    lines.map((l, i) => JSON.stringify({ ...envelope, uuid: `u-${i}`, ...l })).join('\n') + '\n',
  );
  return file;
}

function assistant(id: string, timestamp: string, content: object[]) {
  return {
    type: 'assistant',
    timestamp,
    message: { id, role: 'assistant', model: 'claude-opus-4-6', content },
  };
}

/** The line Claude Code writes in the agent's place when its API call failed or a usage limit stopped it. */
const notice = (text: string, error?: string) => ({
  type: 'assistant',
  isApiErrorMessage: true,
  ...(error ? { error } : {}),
  message: { id: 'e1', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text }] },
});

/** `baton import` of the transcript, then `baton context`'s What to Do Next, in a fresh repository and homes. */
async function whatToDoNext(ending: object[]): Promise<string> {
  const repo = makeRepo();
  const env = { HOME: tempDir('home-'), BATON_HOME: tempDir('baton-home-') };
  const imported = await runCli(['import', transcript(repo, ending)], { cwd: repo, env });
  expect(imported.code, imported.stderr).toBe(0);
  const context = await runCli(['context'], { cwd: repo, env });
  expect(context.code, context.stderr).toBe(0);
  return /### What to Do Next\n(.+)/.exec(context.stdout)?.[1] ?? context.stdout;
}

describe('What to Do Next after a turn that was cut off (baton import, then baton context)', () => {
  // the agent's last message was said on the way: calling it a reply would have the next agent ask the user what
  // comes next, when the request is still to be carried out
  const goOn =
    "No task is recorded, and the agent's turn on the user's latest request (Goal) was cut off (by what: why the previous session ended, said next): go on with that request from where the Last State shows it had got to, first checking what of it already ran. The previous session ended because: ";

  it.each([
    [
      'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
      'an API error',
      'the last turn ended on an API error (500 api_error: Internal server error): the request it was on may not have been carried out; retry it.',
    ],
    [
      'API Error: Request timed out',
      'an API error',
      'the last turn ended on an API error (API Error: Request timed out): the request it was on may not have been carried out; retry it.',
    ],
  ])('on an API error (%s), says so and to go on with the request', async (text, by, because) => {
    expect(await whatToDoNext([notice(text)])).toBe(goOn.replace('%s', by) + because);
  });

  it.each([
    ['Claude AI usage limit reached|1777633200', '2026-05-01 11:00 UTC'],
    ["You've hit your limit · resets 3pm (UTC)", '2026-05-01 15:00 UTC'],
  ])('on a usage limit (%s), says so and to go on with the request', async (text, reset) => {
    expect(await whatToDoNext([notice(text, 'rate_limit')])).toBe(
      goOn.replace('%s', 'a usage limit') +
        `stopped by a usage limit of Claude Code, session 1, that has reset since (at ${reset}): Claude Code can go on.`,
    );
  });

  it("on the user's interruption, has the next agent ask them how to go on: stopping it was their choice", async () => {
    const text = '[Request interrupted by user]';
    const interrupted = { type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } };
    expect(await whatToDoNext([interrupted])).toBe(
      'No task is recorded: ask the user how to go on with their latest request (Goal), whose turn they interrupted.',
    );
  });

  it('a turn that ended on its last message is its reply: the user says whether more is wanted', async () => {
    expect(await whatToDoNext([])).toBe(
      "No task is recorded, and the agent's last message (Last State) replies to the user's latest request: unless it names work left, ask the user what comes next.",
    );
  });
});

/** `baton import` of the transcript, then `baton context`, `baton details errors` and `baton status`. */
async function readBack(ending: object[]) {
  const repo = makeRepo();
  const env = { HOME: tempDir('home-'), BATON_HOME: tempDir('baton-home-') };
  const imported = await runCli(['import', transcript(repo, ending)], { cwd: repo, env });
  expect(imported.code, imported.stderr).toBe(0);
  const [context, errors, status] = await Promise.all(
    [['context'], ['details', 'errors'], ['status']].map((args) => runCli(args, { cwd: repo, env })),
  );
  for (const r of [context, errors, status]) expect(r?.code, r?.stderr).toBe(0);
  return {
    errorsEncountered: /### Errors Encountered.*(?:\n {2}.*)*/.exec(context?.stdout ?? '')?.[0],
    context: context?.stdout ?? '',
    errors: errors?.stdout ?? '',
    status: status?.stdout ?? '',
  };
}

describe('an API failure is the turn it cut off, not an open error of the work (baton context, details, status)', () => {
  const overloaded =
    'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';

  it.each([overloaded, 'API Error: Request was aborted.'])(
    'the turn ended on it (%s): said once, in What to Do Next and the status, never UNRESOLVED',
    async (text) => {
      const r = await readBack([notice(text)]);
      expect(r.errorsEncountered).toBe('### Errors Encountered: none');
      expect(r.context).not.toContain('UNRESOLVED');
      expect(r.context).toMatch(
        /### What to Do Next\n.+The previous session ended because: the last turn ended on an API error/,
      );
      expect(r.errors).toMatch(/agent_error {2}API FAILURE: CUT OFF THE LAST TURN\n/);
      expect(r.errors).not.toContain('UNRESOLVED');
      expect(r.status).not.toContain('open errors');
      expect(r.status).toMatch(/^agent: the last turn ended on an API error \(.+\): .+; retry it$/m);
    },
  );

  it('the agent went on after it (the user said continue, a call worked, it answered): over, listed nowhere as an error', async () => {
    const at = (s: number) => `2026-05-01T10:00:${s}.000Z`;
    const r = await readBack([
      notice(overloaded),
      { type: 'user', timestamp: at(20), message: { role: 'user', content: 'continue' } },
      assistant('m4', at(22), [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'ls' } }]),
      {
        type: 'user',
        timestamp: at(23),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't2', content: 'parser.ts' }],
        },
      },
      assistant('m5', at(25), [{ type: 'text', text: 'The writer is written too; the CSV export is done.' }]),
    ]);
    expect(r.errorsEncountered).toBe('### Errors Encountered: none');
    expect(r.context).not.toContain('API Error');
    expect(r.errors).toMatch(/agent_error {2}API FAILURE: OVER\n/);
    expect(r.status).not.toMatch(/open errors|API error/);
  });

  it('an error of the work beside it is still open and counted alone', async () => {
    const r = await readBack([
      assistant('m4', '2026-05-01T10:00:07.000Z', [
        { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'npm test' } },
      ]),
      {
        type: 'user',
        timestamp: '2026-05-01T10:00:07.500Z',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't2',
              is_error: true,
              content: 'Error: Cannot find module x',
            },
          ],
        },
      },
      notice(overloaded),
    ]);
    expect(r.errorsEncountered).toMatch(/^### Errors Encountered\n {2}! UNRESOLVED: \w+: `npm test`/);
    expect(r.errorsEncountered).not.toContain('API Error');
    expect(r.status).toMatch(/^open errors: 1 \(newest: err-\w+: \w+: `npm test`/m);
  });
});
