import { appendFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, type Baton } from '../helpers/hook-workspace.js';
import { startServerProcess } from '../helpers/server.js';

// A conversation whose workflow was completed, reopened (`codex resume`, `claude --resume`) while another
// conversation's workflow is under way in the same worktree: only the hooks, on transcripts written as the agents
// write them. The reopened conversation gets a workflow of its own that reads its transcript from where the completed
// workflow's import stopped: nothing of that workflow is recorded again.

type Json = Record<string, any>;

function workspace() {
  const { repo, env, baton } = hookWorkspace();
  const status = async (id: string) => (await baton(['status', '-w', id, '--json'])).json<Json>();
  const listed = async () => (await baton(['list', '--json'])).json<{ workflows: Json[] }>().workflows;
  return { repo, home: env.BATON_HOME, baton, status, listed };
}

/** The commit the agent makes, made for real (the next workflow's briefing reads it against git): its short hash. */
function commitExport(repo: string): string {
  writeFileSync(join(repo, 'export.js'), 'export const json = true;\n');
  gitIn(repo, 'add', 'export.js');
  gitIn(repo, 'commit', '-q', '-m', 'Add the --json flag to export');
  return gitIn(repo, 'rev-parse', '--short=7', 'HEAD').trim();
}

/** The agent quit minutes ago (a Codex older than its SessionEnd sends none): its transcript has not changed since. */
function quit(path: string) {
  const past = new Date(Date.now() - 5 * 60_000);
  utimesSync(path, past, past);
}

describe('a Codex conversation resumed after its workflow was completed', () => {
  it('gets a workflow of its own that reads only what it wrote since', async () => {
    const { repo, home, baton, status, listed } = workspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const a = codexConversation(repo, baton, '019e1625-789d-76c0-80ab-3724b5ddb799');
    a.start();
    await a.hook('SessionStart', { source: 'startup' });
    a.turnStarts();
    await a.ask('add a --json flag to the export command');
    a.plan('1', [
      ['add the flag', 'in_progress'],
      ['test it', 'pending'],
    ]);
    a.call(
      'c1',
      'exec_command',
      { cmd: 'npm test' },
      'Process exited with code 1\nOutput:\nError: Cannot find module ./export-json',
    );
    a.call('c2', 'exec_command', { cmd: 'npm test' }, 'Process exited with code 0\nOutput:\n3 passing');
    const hash = commitExport(repo);
    a.call(
      'c3',
      'exec_command',
      { cmd: 'git commit -am "Add the --json flag to export"' },
      `Process exited with code 0\nOutput:\n[main ${hash}] Add the --json flag to export\n 1 file changed, 1 insertion(+)`,
    );
    a.call(
      'c4',
      'exec_command',
      { cmd: 'gh pr create --fill' },
      'Process exited with code 0\nOutput:\nhttps://github.com/acme/exporter/pull/7',
    );
    a.plan('2', [
      ['add the flag', 'completed'],
      ['test it', 'completed'],
    ]);
    expect((await a.stop('Added the --json flag and its test.')).code).toBe(0);
    quit(a.path);
    const first = (await listed())[0]!.id as string;
    const before = await status(first);
    expect(before.counts).toMatchObject({ errors: 1 });
    expect((await baton(['complete', '-w', first])).code).toBe(0);

    // another conversation starts work of its own in the same worktree, and leaves it under way
    const b = codexConversation(repo, baton, '019e1625-0000-76c0-80ab-3724b5ddb700');
    b.start();
    await b.hook('SessionStart', { source: 'startup' });
    b.turnStarts();
    await b.ask('rename the uploader module');
    b.plan('3', [
      ['rename', 'in_progress'],
      ['fix imports', 'pending'],
    ]);
    await b.stop('Renamed; the imports are next.');
    const other = (await listed()).find((w) => w.id !== first)!.id as string;

    // `codex resume` of the first conversation, and a new request
    a.turnStarts();
    const resumed = await a.hook('SessionStart', { source: 'resume' });
    expect(resumed.stderr).toMatch(
      new RegExp(`following this session as workflow wf-\\S+; its workflow ${first} is completed`),
    );
    const third = (await listed()).find((w) => w.id !== first && w.id !== other)!.id as string;
    // the user is told which workflow follows the conversation now, and the agent where its earlier work is
    const said = resumed.json<Json>();
    expect(said.systemMessage).toBe(
      `Baton follows this conversation as a new workflow, ${third}: its workflow ${first} ("add a --json flag to the export command") is completed, and a completed workflow is not reopened (\`baton context -w ${first}\` shows what it did; ${third}'s briefing links it). One other incomplete workflow is open here (\`baton list\` names them; commands here take -w to say which)`,
    );
    expect(said.hookSpecificOutput.additionalContext).toContain(
      `This conversation's earlier work is workflow ${first} ("add a --json flag to the export command"), which is completed: Baton follows this conversation on as workflow ${third}, which links it; the MCP tool get_resume_context with workflow_id ${first} shows it whole`,
    );
    // the other conversation's work under way in the same worktree is named to the agent, to leave alone
    expect(said.hookSpecificOutput.additionalContext).toContain(
      'Another incomplete workflow is open in this worktree (work this conversation did not do; uncommitted changes in the worktree may be its): leave it as it is unless the user asks.',
    );
    expect(resumed.stderr).toContain('(1 other incomplete workflow here)');
    await a.ask('now add a --csv flag too');
    const stop = await a.stop('Added --csv.');
    // only the new turn is read: the request and the agent's message
    expect(stop.stderr).toMatch(/imported 2 new transcript entries \(0 decisions, 0 errors\)/);
    const s = await status(third);
    expect(s.workflow.title).toBe('now add a --csv flag too');
    expect(s.tasks).toEqual([]);
    expect(s.counts).toMatchObject({ errors: 0, decisions: 0 });
    const requests = (await baton(['details', 'requests', '-w', third, '--json'])).json<Json[]>();
    expect(requests.map((r) => r.text)).toEqual(['now add a --csv flag too']);
    // its briefing says where the conversation's earlier work is
    expect((await baton(['context', '-w', third])).stdout).toContain(
      [
        `Earlier work of the conversation this workflow follows: workflow ${first} "add a --json flag to the export command", completed (\`baton context -w ${first}\` or the MCP tool get_resume_context shows it). Done there, not to redo:`,
        '  - pull request https://github.com/acme/exporter/pull/7',
        `  - commit ${hash} Add the --json flag to export`,
      ].join('\n'),
    );
    // the finished workflow is as it was
    expect((await status(first)).counts).toEqual(before.counts);
    // two incomplete workflows here, each a conversation's: status without -w takes the one at work last, the
    // resumed conversation's, and names the other with the conversation it follows
    const here = await baton(['status']);
    expect(here.code, here.stderr).toBe(0);
    expect(here.stdout.split('\n')[0]).toBe(`${third}  now add a --csv flag too`);
    expect(here.stdout).toContain(
      `also open here: ${other} "rename the uploader module" (follows Codex session 019e1625-0000-76c0-80ab-3724b5ddb700, last active `,
    );
    // a resume asks which run, as the Resume Protocol has it, saying which conversation each follows
    const ambiguous = await baton(['resume']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      `${third}  in_progress now add a --csv flag too  (follows Codex session 019e1625-789d-76c0-80ab-3724b5ddb799, last active `,
    );
    expect(ambiguous.stderr).toContain(
      `${other}  in_progress rename the uploader module  (follows Codex session 019e1625-0000-76c0-80ab-3724b5ddb700, last active `,
    );
    // paused (over a server too), it goes on most likely in Codex, whose conversation it follows: said first
    const server = await startServerProcess(home);
    try {
      const paused = await baton(['pause', '--force', '-w', third], undefined, { BATON_URL: server.url });
      expect(paused.code, `${paused.stderr}\n${server.report()}`).toBe(0);
      const goOn = `to go on: send your next prompt in the Codex session if it is still open, else open Codex here and send one (the hooks resume ${third}), or \`baton run -w ${third}\` (Baton runs the agent)`;
      expect(paused.stdout).toContain(goOn);
      expect((await baton(['status', '-w', third])).stdout).toContain(goOn);
    } finally {
      await server.stop();
    }
  });
});

/** A Claude Code conversation: its transcript and its hooks. */
function claudeConversation(repo: string, baton: Baton, id: string) {
  const path = join(tempDir('baton-transcript-'), `${id}.jsonl`);
  const hook = (event: string, fields: Json = {}) =>
    baton(
      ['hook', event],
      JSON.stringify({ cwd: repo, hook_event_name: event, session_id: id, transcript_path: path, ...fields }),
    );
  const line = (type: string, message: Json) =>
    JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId: id, cwd: repo, message });
  const write = (...lines: string[]) => appendFileSync(path, `${lines.join('\n')}\n`);
  const ask = async (prompt: string) => {
    write(line('user', { role: 'user', content: prompt }));
    await hook('UserPromptSubmit', { prompt });
  };
  let n = 0;
  const call = (name: string, input: Json, content: string, isError = false) => {
    const use = `toolu-${id.slice(-2)}-${++n}`;
    write(
      line('assistant', {
        id: `m-${use}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id: use, name, input }],
      }),
      line('user', {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: use, content, is_error: isError }],
      }),
    );
  };
  const todos = (...items: [string, string][]) =>
    call(
      'TodoWrite',
      { todos: items.map(([content, status]) => ({ content, status, activeForm: content })) },
      'ok',
    );
  const stop = (text: string) => {
    write(line('assistant', { id: `m-${id}-${++n}`, role: 'assistant', content: [{ type: 'text', text }] }));
    return hook('Stop', { stop_hook_active: false, last_assistant_message: text });
  };
  return { path, hook, ask, call, todos, stop };
}

describe('a Claude Code conversation resumed after its workflow was completed', () => {
  it('gets a workflow of its own that reads only what it wrote since', async () => {
    const { repo, baton, status, listed } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const a = claudeConversation(repo, baton, '196820da-0000-4000-8000-0000000000a1');
    await a.hook('SessionStart', { source: 'startup' });
    await a.ask('add a --json flag to the export command');
    a.todos(['Add the flag', 'in_progress'], ['Test it', 'pending']);
    a.call('Bash', { command: 'npm test' }, 'Error: Cannot find module ./export-json', true);
    a.call('Bash', { command: 'npm test' }, '3 passing');
    const hash = commitExport(repo);
    a.call(
      'Bash',
      { command: 'git commit -am "Add the --json flag to export"' },
      `[main ${hash}] Add the --json flag to export\n 1 file changed, 1 insertion(+)`,
    );
    a.todos(['Add the flag', 'completed'], ['Test it', 'completed']);
    expect((await a.stop('Added the --json flag and its test.')).code).toBe(0);
    await a.hook('SessionEnd', { reason: 'prompt_input_exit' });
    const first = (await listed())[0]!.id as string;
    const before = await status(first);
    expect(before.counts).toMatchObject({ errors: 1 });

    // a new conversation: the first one's work is over, so it is completed and this one gets a workflow of its own
    const b = claudeConversation(repo, baton, '196820da-0000-4000-8000-0000000000b2');
    expect((await b.hook('SessionStart', { source: 'startup' })).stderr).toContain(
      `completed workflow ${first}`,
    );
    await b.ask('rename the uploader module');
    b.todos(['Rename', 'in_progress'], ['Fix imports', 'pending']);
    await b.stop('Renamed; the imports are next.');
    const other = (await listed()).find((w) => w.id !== first)!.id as string;

    // the user drops the first conversation's commit (`git reset --hard HEAD~1`), then resumes it: its briefing does
    // not say the commit is on the branch
    gitIn(repo, 'reset', '-q', '--hard', 'HEAD~1');
    // `claude --resume` of the first conversation, and a new request
    const resumed = await a.hook('SessionStart', { source: 'resume' });
    expect(resumed.stderr).toMatch(new RegExp(`its workflow ${first} is completed`));
    const third = (await listed()).find((w) => w.id !== first && w.id !== other)!.id as string;
    const said = resumed.json<Json>();
    expect(said.systemMessage).toContain(
      `Baton follows this conversation as a new workflow, ${third}: its workflow ${first} ("add a --json flag to the export command") is completed`,
    );
    expect(said.hookSpecificOutput.additionalContext).toContain(
      `Baton follows this conversation on as workflow ${third}, which links it; \`baton context -w ${first}\` shows it whole.`,
    );
    await a.ask('now add a --csv flag too');
    expect((await a.stop('Added --csv.')).stderr).toMatch(
      /imported 2 new transcript entries \(0 decisions, 0 errors\)/,
    );
    const s = await status(third);
    expect(s.workflow.title).toBe('now add a --csv flag too');
    expect(s.tasks).toEqual([]);
    expect(s.counts).toMatchObject({ errors: 0, decisions: 0 });
    expect((await baton(['context', '-w', third])).stdout).toContain(
      [
        `Earlier work of the conversation this workflow follows: workflow ${first} "add a --json flag to the export command", completed (\`baton context -w ${first}\` or the MCP tool get_resume_context shows it). Done there, not to redo:`,
        `  - commit ${hash} Add the --json flag to export (not on main now: on no branch, reset away or rewritten)`,
      ].join('\n'),
    );
    expect((await status(first)).counts).toEqual(before.counts);

    // completed while the conversation is open (`baton complete` in another terminal): its next prompt says so too
    expect((await baton(['complete', '-w', third])).code).toBe(0);
    const prompt = await a.hook('UserPromptSubmit', { prompt: 'and an --xml flag' });
    const fourth = (await listed()).find((w) => ![first, other, third].includes(w.id))!.id as string;
    const told = prompt.json<Json>();
    expect(told.systemMessage).toContain(
      `Baton follows this conversation as a new workflow, ${fourth}: its workflow ${third} ("now add a --csv flag too") is completed`,
    );
    expect(told.hookSpecificOutput).toMatchObject({ hookEventName: 'UserPromptSubmit' });
    expect(told.hookSpecificOutput.additionalContext).toContain(`earlier work is workflow ${third}`);

    // both conversations quit minutes ago; a new one goes on with the latest workflow, and is told of the other
    const past = new Date(Date.now() - 5 * 60_000);
    for (const x of [a, b]) utimesSync(x.path, past, past);
    const d = claudeConversation(repo, baton, '196820da-0000-4000-8000-0000000000d4');
    const start = (await d.hook('SessionStart', { source: 'startup' })).json<Json>();
    expect(start.systemMessage).toContain(`workflow ${fourth} "and an --xml flag"`);
    expect(start.systemMessage).toContain(
      'One other incomplete workflow is open here (`baton list` names them; `baton abandon -w <id>` or `baton complete -w <id>` ends one)',
    );
  });
});

describe('a Claude Code conversation whose workflow the user abandoned', () => {
  it('is told at its next prompt, and its new workflow does not take the abandoned work up again', async () => {
    const { repo, baton, status, listed } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const a = claudeConversation(repo, baton, '196820da-0000-4000-8000-0000000000c3');
    await a.hook('SessionStart', { source: 'startup' });
    await a.ask('port the exporter to the new storage API');
    a.todos(
      ['Port the reader', 'completed'],
      ['Port the writer', 'in_progress'],
      ['Drop the old API', 'pending'],
    );
    expect((await a.stop('The reader is ported; the writer is next.')).code).toBe(0);
    const first = (await listed())[0]!.id as string;
    // abandoned while the next turn is under way: the rest of that turn is the abandoned work's, recorded nowhere
    await a.ask('go on');
    expect((await baton(['abandon', '-w', first])).code).toBe(0);
    a.todos(
      ['Port the reader', 'completed'],
      ['Port the writer', 'completed'],
      ['Drop the old API', 'in_progress'],
    );
    const rest = await a.stop('The writer is ported; dropping the old API next.');
    expect(rest.stderr).toContain(
      `workflow ${first}, which this conversation followed, was abandoned: Baton follows it again from its next prompt`,
    );
    expect((await listed()).map((w) => w.id)).toEqual([first]);

    // the same conversation goes on: the user and the agent are told the briefing it had no longer holds
    const prompt = await a.hook('UserPromptSubmit', { prompt: 'fix the typo in the README instead' });
    const second = (await listed()).find((w) => w.id !== first)!.id as string;
    const told = prompt.json<Json>();
    expect(told.systemMessage).toBe(
      `Baton follows this conversation as a new workflow, ${second}: its workflow ${first} ("port the exporter to the new storage API") was abandoned, and an abandoned workflow is not resumed (\`baton context -w ${first}\` shows what it did; ${second}'s briefing links it)`,
    );
    expect(told.hookSpecificOutput.additionalContext).toBe(
      `This conversation's earlier work is workflow ${first} ("port the exporter to the new storage API"), which the user abandoned: do not go on with it unless the user asks. Baton follows this conversation on as workflow ${second}, which links it; \`baton context -w ${first}\` shows it whole.`,
    );
    a.todos(['Fix the README typo', 'in_progress']);
    expect((await a.stop('Fixed the typo.')).stderr).toMatch(/imported \d+ new transcript entries/);
    // only what the conversation did since: the abandoned list's tasks are not recorded again
    const s = await status(second);
    expect(s.workflow.title).toBe('fix the typo in the README instead');
    expect(s.tasks.map((t: Json) => t.title)).toEqual(['Fix the README typo']);
    expect((await baton(['context', '-w', second])).stdout).toContain(
      `Earlier work of the conversation this workflow follows: workflow ${first} "port the exporter to the new storage API", abandoned by the user (not to be continued) (\`baton context -w ${first}\` or the MCP tool get_resume_context shows it).`,
    );
    expect((await status(first)).workflow.status).toBe('cancelled');
  });
});

/**
 * Two conversations' workflows open in one worktree: a new conversation's (`other`), and one of an old conversation
 * resumed (`claude --resume`) after its first workflow was completed (`resumed`), which was at work last.
 */
async function twoConversationsOpen() {
  const { repo, home, baton, status, listed } = workspace();
  expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
  const a = claudeConversation(repo, baton, '196820da-0000-4000-8000-0000000000e5');
  await a.hook('SessionStart', { source: 'startup' });
  await a.ask('add a --json flag to the export command');
  a.todos(['Add the flag', 'completed']);
  await a.stop('Added the --json flag.');
  await a.hook('SessionEnd', { reason: 'prompt_input_exit' });
  const first = (await listed())[0]!.id as string;
  // a new conversation completes the finished one and works on its own
  const b = claudeConversation(repo, baton, '196820da-0000-4000-8000-0000000000f6');
  await b.hook('SessionStart', { source: 'startup' });
  await b.ask('rename the uploader module');
  b.todos(['Rename', 'in_progress'], ['Fix imports', 'pending']);
  await b.stop('Renamed; the imports are next.');
  const other = (await listed()).find((w) => w.id !== first)!.id as string;
  expect((await status(first)).workflow.status).toBe('completed');

  // `claude --resume` of the old conversation, which asks for more
  await a.hook('SessionStart', { source: 'resume' });
  await a.ask('now add a --csv flag too');
  await a.stop('Added --csv.');
  const resumed = (await listed()).find((w) => w.id !== first && w.id !== other)!.id as string;
  expect((await status(resumed)).workflow.status).toBe('in_progress');
  expect((await status(other)).workflow.status).toBe('in_progress');
  return { home, baton, status, a, b, resumed, other };
}

describe('an old conversation resumed while a new one works in the same worktree', () => {
  it("is the workflow a person's command without -w means while it is the latest at work, the other said", async () => {
    const { baton, a, b, resumed, other } = await twoConversationsOpen();

    // a person's `baton status` here: the workflow of the conversation at work last, and the other one named
    const text = await baton(['status']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`${resumed}  now add a --csv flag too`);
    expect(text.stdout).toMatch(
      new RegExp(
        `^also open here: ${other} "rename the uploader module" \\(follows Claude Code session 196820da-0000-4000-8000-0000000000f6, last active \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\): \`baton status -w ${other}\`$`,
        'm',
      ),
    );
    const json = (await baton(['status', '--json'])).json<Json>();
    expect(json.workflow.id).toBe(resumed);
    expect(json.also_open).toEqual([
      {
        id: other,
        title: 'rename the uploader module',
        status: 'in_progress',
        follows: { name: 'claude-code', session_id: '196820da-0000-4000-8000-0000000000f6' },
        last_active_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    // its briefing too, the other one said beside it on standard error
    const context = await baton(['context']);
    expect(context.code, context.stderr).toBe(0);
    expect(context.stdout).toContain('now add a --csv flag too');
    expect(context.stdout).not.toContain('rename the uploader module');
    expect(context.stderr).toContain(`also open here: ${other} "rename the uploader module"`);
    expect((await baton(['context', '--json'])).json<Json>().also_open[0].id).toBe(other);
    // the resumed conversation's next session start is briefed on its own workflow, not the other one's
    const again = (await a.hook('SessionStart', { source: 'compact' })).json<Json>();
    expect(again.hookSpecificOutput.additionalContext).toContain(`workflow ${resumed}`);
    expect(again.hookSpecificOutput.additionalContext).toContain('now add a --csv flag too');
    expect(again.hookSpecificOutput.additionalContext).not.toContain('rename the uploader module');

    // the other conversation takes a turn: it is the one meant now
    await b.ask('fix the imports');
    await b.stop('Fixed the imports.');
    const now = (await baton(['status', '--json'])).json<Json>();
    expect(now.workflow.id).toBe(other);
    expect(now.also_open.map((w: Json) => w.id)).toEqual([resumed]);
    // named, each is as it is, with nothing else said
    expect((await baton(['status', '-w', resumed, '--json'])).json<Json>().also_open).toBeUndefined();
  });

  it("says on standard error which one a person's command without -w acted on, and when it cannot choose, when each conversation was at work", async () => {
    const { home, baton, status, resumed, other } = await twoConversationsOpen();
    const note = new RegExp(
      `^note: also open here: ${other} "rename the uploader module" \\(follows Claude Code session 196820da-0000-4000-8000-0000000000f6, last active \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\): \`baton status -w ${other}\`$`,
      'm',
    );
    // what a person records, moves or reads here acts on the workflow of the conversation at work last, the other named
    const decided = await baton([
      'record',
      'decision',
      '--type',
      'library',
      '--description',
      'Use csv-stringify for the --csv flag',
      '--rationale',
      'it quotes fields',
      '--json',
    ]);
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.stderr).toMatch(note);
    // standard output stays the command's JSON alone
    expect(decided.json<Json>().workflow_id).toBe(resumed);
    for (const args of [
      ['task', 'add', 'T9:Document the flags'],
      ['task', 'start', 'T9'],
      ['checkpoint', '--name', 'csv'],
      ['snapshots'],
      ['details', 'decisions'],
      ['show', '--json'],
      ['session-status'],
    ]) {
      const r = await baton(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(note);
    }
    const mine = await status(resumed);
    expect(mine.tasks.map((t: Json) => [t.id, t.status])).toContainEqual(['T9', 'in_progress']);
    expect(mine.counts.decisions).toBe(1);
    expect((await status(other)).tasks.map((t: Json) => t.id)).not.toContain('T9');
    // over a server the same: its GET of the current workflow names the others too
    const server = await startServerProcess(home);
    try {
      const done = await baton(['task', 'done', 'T9', '--json'], undefined, { BATON_URL: server.url });
      expect(done.code, `${done.stderr}\n${server.report()}`).toBe(0);
      expect(done.stderr).toMatch(note);
      expect(done.json<Json>().workflow_id).toBe(resumed);
      // queueing or starting an agent run asks which, as a resume does (below): its workflow is not guessed
      for (const args of [
        ['submit', '--agent', 'claude-code'],
        ['run', '--agent', 'claude-code'],
      ]) {
        const asked = await baton(args, undefined, { BATON_URL: server.url });
        expect(asked.code, `${args.join(' ')}: ${asked.stderr}\n${server.report()}`).toBe(2);
        expect(asked.stderr, args.join(' ')).toContain(`2 incomplete workflows in `);
        expect(asked.stderr, args.join(' ')).toMatch(new RegExp(`^  ${other}  `, 'm'));
      }
    } finally {
      await server.stop();
    }
    // the pause too: a person pausing is told which of the two it paused
    const paused = await baton(['pause', '--reason', 'end of day']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stderr).toMatch(note);
    // and goes on most likely in the agent whose conversation it follows: said first, then `baton run`; its tasks all
    // done before the pause, a new conversation completes it rather than going on with it
    const goOn = `to go on with it: send your next prompt in the Claude Code session if it is still open (the hooks resume ${resumed}), or \`baton run -w ${resumed}\` (Baton runs the agent); a new Claude Code conversation here completes it instead and starts a new workflow (its work is over)`;
    expect(paused.stdout).toContain(goOn);
    expect((await baton(['status', '-w', resumed])).stdout).toContain(goOn);
    expect((await status(resumed)).workflow.status).toBe('paused');
    expect((await status(other)).workflow.status).toBe('in_progress');
    // named with -w, nothing else is said
    const named = await baton(['snapshots', '-w', other]);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).not.toContain('also open here');
    // `baton run` and `baton submit` ask which, before any agent starts or anything is queued
    for (const args of [
      ['run', '--agent', 'claude-code'],
      ['submit', '--agent', 'claude-code'],
    ]) {
      const asked = await baton(args);
      expect(asked.code, `${args.join(' ')}: ${asked.stderr}`).toBe(2);
      expect(asked.stderr, args.join(' ')).toMatch(
        new RegExp(
          `^  ${other}  in_progress rename the uploader module  \\(follows Claude Code session `,
          'm',
        ),
      );
      expect(asked.stderr, args.join(' ')).not.toContain('also open here');
    }
    expect((await baton(['queue', '--json'])).json<Json>().entries).toEqual([]);

    // a resume asks which: each listed with the conversation it follows and when that was last at work
    const ambiguous = await baton(['resume']);
    expect(ambiguous.code).toBe(2);
    const listedWith = (id: string, title: string, session: string) =>
      new RegExp(
        `^  ${id}  \\w+ +${title}  \\(follows Claude Code session ${session}, last active \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)$`,
        'm',
      );
    expect(ambiguous.stderr).toMatch(
      listedWith(resumed, 'now add a --csv flag too', '196820da-0000-4000-8000-0000000000e5'),
    );
    expect(ambiguous.stderr).toMatch(
      listedWith(other, 'rename the uploader module', '196820da-0000-4000-8000-0000000000f6'),
    );
    // a checkpoint's restore is a recovery too: it asks which, as `baton recover --option live_state` does
    const restore = await baton(['recover', '--option', 'checkpoint', '--dry-run']);
    expect(restore.code, restore.stdout).toBe(2);
    expect(restore.stderr).toMatch(
      listedWith(other, 'rename the uploader module', '196820da-0000-4000-8000-0000000000f6'),
    );
    const error = (await baton(['resume', '--json'])).json<Json>().error;
    expect(error.candidates.map((c: Json) => [c.id, c.follows?.session_id, typeof c.last_active_at])).toEqual(
      expect.arrayContaining([
        [resumed, '196820da-0000-4000-8000-0000000000e5', 'string'],
        [other, '196820da-0000-4000-8000-0000000000f6', 'string'],
      ]),
    );
  });
});
