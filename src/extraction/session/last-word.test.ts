import { describe, expect, it } from 'vitest';
import { parseClaudeTranscript } from '../../agents/claude-code/transcript.js';
import { parseCodexRollout } from '../../agents/codex/rollout.js';
import { agentSummaries } from '../../agents/agent-summaries.js';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { claudeTool } from '../../../test/helpers/transcript-lines.js';
import { readSession } from './read-session.js';

/** The agent's last word, and what it set off after it that never came back (the session cut while it ran). */
const lastWord = (text: string) =>
  readSession(parseClaudeTranscript(text).entries).summaries.findLast((s) => s.kind !== 'interrupted');

describe("the agent's last word", () => {
  it('says which calls after it never returned: the session ended while a commit and a push ran', () => {
    const last = lastWord(readCorpus('claude-code/eklavyagoyal-perigee/0/full.jsonl'));
    expect(last).toMatchObject({ line: 163, kind: 'last_message', turn_ended: false });
    expect(last?.text).toMatch(
      /^All staged cleanly .* Committing and pushing now\.\n\nThe transcript ends before this call returned \(check whether it ran\): `Bash: git commit -m /s,
    );
    // both ends of the call: its message cut in the middle, the push it ends with kept
    expect(last?.text).toMatch(/ … .*git push origin feature\/periodicity-telecommand-signals`$/);
  });

  it('is the calls that never returned when the piece read holds no message (a turn of calls only, cut off)', () => {
    const call = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:03.000Z',
      message: {
        id: 'm7',
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'p1', name: 'Bash', input: { command: 'git push -u origin main' } },
        ],
      },
    });
    const text = [...claudeTool('b1', 'Bash', { command: 'git remote add origin x' }, ''), call].join('\n');
    expect(lastWord(text)).toMatchObject({ kind: 'last_message', turn_ended: false });
    expect(lastWord(text)?.text).toBe(
      'No message since the last one. The transcript ends before this call returned (check whether it ran): `Bash: git push -u origin main`',
    );
    // every call answered and nothing said: nothing to tell
    expect(lastWord(claudeTool('b2', 'Bash', { command: 'ls' }, 'a').join('\n'))).toBeUndefined();
    // read from the transcript's first line, there is no earlier message: the session was cut off before any word
    const whole = readSession(parseClaudeTranscript(text).entries, { fromStart: true }).summaries.at(-1);
    expect(whole).toMatchObject({ kind: 'last_message', turn_ended: false, said_nothing: true });
    expect(whole?.text).toBe(
      'The session was cut off before the agent said anything. The transcript ends before this call returned (check whether it ran): `Bash: git push -u origin main`',
    );
    expect(lastWord(text)?.said_nothing).toBeUndefined();
  });

  it('is what the calls came to when the whole transcript ends on their results, the agent silent', () => {
    const request = JSON.stringify({
      type: 'user',
      timestamp: '2026-01-01T00:00:01.000Z',
      message: { role: 'user', content: 'fix the off-by-one in range.js and run the tests' },
    });
    const calls = [
      ...claudeTool('e1', 'Edit', { file_path: 'range.js' }, 'The file range.js has been updated.'),
      ...claudeTool(
        'b1',
        'Bash',
        { command: 'npm test' },
        'FAIL test/range.test.js\nTests: 1 failed, 4 passed',
      ),
    ];
    const text = [request, ...calls].join('\n');
    const whole = readSession(parseClaudeTranscript(text).entries, { fromStart: true }).summaries.at(-1);
    expect(whole).toMatchObject({ kind: 'last_message', turn_ended: false, said_nothing: true });
    expect(whole?.text).toBe(
      'The session was cut off before the agent said anything. Its last calls: `Edit: range.js` worked; `Bash: npm test` worked, its output ending: Tests: 1 failed, 4 passed',
    );
    // a piece read after an earlier message: nothing new to tell that way
    expect(lastWord(calls.join('\n'))).toBeUndefined();
  });

  it('names no call left open before a later request: the conversation was resumed after the crash and went on', () => {
    const line = (type: 'user' | 'assistant', id: string, content: unknown[]) =>
      JSON.stringify({ type, timestamp: '2026-01-01T00:00:05.000Z', message: { id, role: type, content } });
    const said = line('assistant', 'm1', [{ type: 'text', text: 'Pushing the branch.' }]);
    const push = line('assistant', 'm2', [
      { type: 'tool_use', id: 'p1', name: 'Bash', input: { command: 'git push origin main' } },
    ]);
    // `claude --resume`: the user's next request, and calls that returned, written after the call that never did
    const resumed = [
      line('user', 'u1', [{ type: 'text', text: 'go on' }]),
      ...claudeTool('e1', 'Edit', { file_path: 'README.md' }, 'The file has been updated.'),
    ];
    // read whole: the message before the crash, with no claim that the transcript ends on the push; what the agent did
    // on the request after it, with no word yet, is newer than the message, and said so
    expect(lastWord([said, push, ...resumed].join('\n'))).toMatchObject({
      text: 'Pushing the branch.\n\nThen the user said "go on", and the agent\'s calls on it, with no word yet: `Edit: README.md` worked',
      turn_ended: false,
    });
    // a piece of calls only after it: nothing new to tell, rather than "No message since the last one" and the push
    expect(lastWord([push, ...resumed].join('\n'))).toBeUndefined();
    // cut off again in the resumed turn: only that turn's call is open
    const again = line('assistant', 'm3', [
      { type: 'tool_use', id: 'p2', name: 'Bash', input: { command: 'npm test' } },
    ]);
    expect(lastWord([push, ...resumed, again].join('\n'))?.text).toBe(
      'No message since the last one. The transcript ends before this call returned (check whether it ran): `Bash: npm test`',
    );
  });

  it("names a cut-off commit by its message's subject when the message is a heredoc, not by its trailer", () => {
    const said = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:02.000Z',
      message: {
        id: 'm5',
        role: 'assistant',
        content: [{ type: 'text', text: 'The build passes. Committing.' }],
      },
    });
    const command = [
      "git add Dockerfile && git commit -q -F - <<'EOF'",
      'Fix the PATH in the build image after the installer moved',
      '',
      'The installer now puts its binaries elsewhere, so the build step failed with exit 127.',
      'Keep both folders on PATH so old and new layouts build.',
      '',
      'Co-Authored-By: Someone <someone@example.com>',
      'EOF',
      'git push origin main 2>&1 | tail -5',
    ].join('\n');
    const call = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:03.000Z',
      message: {
        id: 'm6',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'c1', name: 'Bash', input: { command } }],
      },
    });
    expect(lastWord([said, call].join('\n'))?.text).toBe(
      "The build passes. Committing.\n\nThe transcript ends before this call returned (check whether it ran): `Bash: git add Dockerfile && git commit -q -F - <<'EOF' Fix the PATH in the build image after the installer moved … EOF; git push origin main 2>&1 | tail -5`",
    );
  });

  it('says what the calls after it came to, the latest of them, when the turn went on (a real go session cut at line 98)', () => {
    const text = readCorpus('claude-code/entire-cli/9f/d2fc39aa5f/0/full.jsonl');
    const last = lastWord(text.split('\n').slice(0, 98).join('\n'));
    // the last call (line 97) and its result (line 98)
    expect(last).toMatchObject({ line: 78, turn_ended: false, open_through: 98 });
    const file = '/Users/paul/src/entireio/cli/cmd/entire/cli/telemetry/telemetry.go';
    expect(last?.text).toBe(
      [
        "There's `BatchUploadTimeout` (defaults to 10 seconds!) - that's likely the issue. Let me set aggressive timeouts and a no-op logger to silence warnings:",
        `After it (after 6 earlier calls): \`Bash: go doc github.com/posthog/posthog-go Logger\` worked; \`Edit: ${file}\` worked; \`Bash: mise run fmt && mise run lint\` worked; \`Bash: go build -o ./entire ./cmd/entire && time ./entire help > /dev/null\` worked, its output ending: ./entire help > /dev/null < /dev/null  0.01s user 0.03s system 3% cpu 1.127 total`,
      ].join('\n\n'),
    );
  });

  it('names the Codex command still running, not the polls that read its output (a rollout cut at line 232)', () => {
    const text = readCorpus(
      'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    );
    const cut = text.split('\n').slice(0, 232).join('\n');
    const last = readSession(parseCodexRollout(cut).entries).summaries.findLast(
      (s) => s.kind !== 'interrupted',
    );
    // the three write_stdin polls of lines 211-213 returned at 215-217; the find of line 230 said it still ran
    expect(last?.text).toMatch(
      /\n\nThe transcript ends before this call returned \(check whether it ran\): `exec_command: find node_modules\/@codemieai\/codemie-opencode-darwin-arm64 -maxdepth 3 -type f /,
    );
    expect(last?.text).not.toContain('write_stdin');
  });

  it('takes a read of a background command that ended (TaskOutput) as returned, not as a call left open', () => {
    const said = JSON.stringify({
      type: 'assistant',
      message: {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'text', text: 'The tests run; I will read them.' }],
      },
    });
    const ended =
      '<task_id>abc123</task_id>\n<status>completed</status>\n<exit_code>0</exit_code>\n<output>ok</output>';
    const text = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'run the tests' } }),
      ...claudeTool(
        'b1',
        'Bash',
        { command: 'npm test', run_in_background: true },
        'Command running in background with ID: abc123',
      ),
      said,
      ...claudeTool('r1', 'TaskOutput', { task_id: 'abc123' }, ended),
    ].join('\n');
    const last = lastWord(text);
    expect(last).toMatchObject({ line: 4, kind: 'last_message' });
    expect(last?.text).not.toContain('before this call returned');
  });

  it("reads a Codex message said on its way (phase commentary) as mid-turn, its final answer as the turn's end", () => {
    const text = readCorpus('codex/jdx-usage/0/full.jsonl');
    const lastOf = (n: number) =>
      readSession(parseCodexRollout(text.split('\n').slice(0, n).join('\n')).entries).summaries.findLast(
        (s) => s.kind !== 'interrupted',
      );
    // line 89: "I’ll verify the PR is still mergeable ..., then merge it": nothing after it was written yet
    expect(lastOf(90)).toMatchObject({ line: 89, turn_ended: false });
    expect(lastOf(90)?.text).toMatch(/^I’ll verify the PR is still mergeable/);
    // the whole rollout ends on the final answer
    expect(readSession(parseCodexRollout(text).entries).summaries.at(-1)).toMatchObject({ turn_ended: true });
  });

  it("says a command's exit status as it is, and a tool's error as failed", () => {
    const said = JSON.stringify({
      type: 'assistant',
      message: {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'text', text: 'Looking for the old name.' }],
      },
    });
    const search = claudeTool('b1', 'Bash', { command: 'rg -n oldName src' }, 'Exit code 1', true);
    const read = claudeTool('b2', 'Read', { file_path: 'src/gone.ts' }, 'File does not exist.', true);
    expect(lastWord([said, ...search, ...read].join('\n'))?.text).toBe(
      'Looking for the old name.\n\nAfter it: `Bash: rg -n oldName src` exited 1; `Read: src/gone.ts` failed',
    );
  });

  it('says a call the user declined as declined by the user, not as failed', () => {
    const said = JSON.stringify({
      type: 'assistant',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Fixing the test.' }] },
    });
    // Claude Code's tool result for a call the user rejected, then its note that the user stopped the turn there
    const declined = claudeTool(
      'e1',
      'Edit',
      { file_path: 'cmd/resume_test.go', old_string: 'a', new_string: 'b' },
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
      true,
    );
    const stopped = JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }],
      },
    });
    const read = claudeTool('r1', 'Read', { file_path: 'src/gone.ts' }, 'File does not exist.', true);
    expect(lastWord([said, ...read, ...declined].join('\n'))?.text).toBe(
      'Fixing the test.\n\nAfter it: `Read: src/gone.ts` failed; `Edit: cmd/resume_test.go` declined by the user',
    );
    expect(lastWord([said, ...declined, stopped].join('\n'))?.text).toBe(
      'Fixing the test.\n\nAfter it: `Edit: cmd/resume_test.go` declined by the user',
    );
  });

  it("says how a command's output ended by its last line that says something, not a closing rule or a note", () => {
    const said = JSON.stringify({
      type: 'assistant',
      message: {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'text', text: 'Checking the front matter.' }],
      },
    });
    const look = claudeTool(
      'b1',
      'Bash',
      { command: 'head -4 post.md' },
      '---\ntitle: Hello\ndraft: true\n---',
    );
    expect(lastWord([said, ...look].join('\n'))?.text).toBe(
      'Checking the front matter.\n\nAfter it: `Bash: head -4 post.md` worked, its output ending: draft: true',
    );
    // nor by the note Claude Code adds when the command left the project's folder
    const status = claudeTool(
      'b2',
      'Bash',
      { command: 'cd ../app-migration && git status -sb' },
      '## feat/mcp-sdk-2-migration\nShell cwd was reset to /Users/t/workspace/app',
    );
    expect(lastWord([said, ...status].join('\n'))?.text).toMatch(
      /its output ending: ## feat\/mcp-sdk-2-migration$/,
    );
  });

  it('says a Codex code-mode cell by the commands Codex recorded apart, once (a rollout cut at line 37)', () => {
    const cut = readCorpus('codex/jdx-usage/0/full.jsonl').split('\n').slice(0, 37).join('\n');
    const last = readSession(parseCodexRollout(cut).entries).summaries.findLast(
      (s) => s.kind !== 'interrupted',
    );
    expect(last?.text).toMatch(
      /\n\nAfter it: `exec_command: gh api -H 'Accept … [^`]*` worked, its output ending: /,
    );
    expect(last?.text).not.toContain('`exec: gh api');
  });

  it('says a Codex code-mode command that carries no exit code failed when its output says so, as its error does (rollout lines 230-239)', () => {
    const rollout = readCorpus('codex/hk/e5/cb0813e003/0/full.jsonl').split('\n').slice(0, 239).join('\n');
    const entries = parseCodexRollout(rollout).entries;
    const last = readSession(entries).summaries.at(-1);
    // "zsh:2: command not found: hk", then `target/debug/hk fix` ran, then "sh: pkl: command not found"
    expect(last?.text).toMatch(
      /\n\nAfter it: `exec: git status --short --branch[^`]*` failed; `exec: target\/debug\/hk fix -S [^`]*` worked; `exec: target\/debug\/hk fix --all [^`]*` failed$/,
    );
    // a command of several lines is said as several, as its error names it
    expect(last?.text).toContain(
      'After it: `exec: git status --short --branch; hk fix -S … git diff --check; git diff',
    );
    expect(last?.text).toContain(
      '`exec: target/debug/hk fix -S pkl-format; git diff --check; git diff -- pkl/builtins/no_commit_to_branch.pkl` worked',
    );
    // read without the error extraction's judgment: no verdict
    expect(agentSummaries(entries).at(-1)?.text).toMatch(
      /\n\nAfter it: `exec: git status [^`]*` returned; `exec: target\/debug\/hk fix -S [^`]*` returned; `exec: target\/debug\/hk fix --all [^`]*` returned$/,
    );
  });

  it('says one pull request opened once: a code-mode cell calling the GitHub MCP tool and the call Codex recorded beside it (rollout lines 161-170)', () => {
    const rollout = readCorpus('codex/hk/e5/cb0813e003/0/full.jsonl').split('\n').slice(0, 170).join('\n');
    const last = readSession(parseCodexRollout(rollout).entries).summaries.at(-1);
    // the cell printed "Action completed.", the tool's answer holds https://github.com/jdx/hk/pull/1075
    expect(last?.text).toMatch(
      /\n\nAfter it: `mcp__codex_apps__github_create_pull_request` worked; `exec: gh pr view --repo jdx\/hk /,
    );
    expect(last?.text).not.toContain(
      '`exec: const r = await tools.mcp__codex_apps__github_create_pull_request',
    );
  });

  it('says one pull request opened once: `gh pr create`, then a GitHub MCP tool answering with the same one', () => {
    const url = 'https://github.com/acme/app/pull/221';
    const text = [
      JSON.stringify({
        type: 'assistant',
        message: { id: 'm0', role: 'assistant', content: [{ type: 'text', text: 'Opening the PR.' }] },
      }),
      ...claudeTool('p1', 'Bash', { command: 'gh pr create --fill' }, `${url}\n`),
      ...claudeTool(
        'p2',
        'mcp__github__create_pull_request',
        { owner: 'acme', repo: 'app' },
        `{"html_url":"${url}","number":221}`,
      ),
      ...claudeTool(
        'p3',
        'Bash',
        { command: 'gh pr create --fill --base next' },
        'https://github.com/acme/app/pull/222\n',
      ),
    ].join('\n');
    expect(lastWord(text)?.text).toBe(
      `Opening the PR.\n\nAfter it: \`Bash: gh pr create --fill\` worked; \`Bash: gh pr create --fill --base next\` worked, its output ending: https://github.com/acme/app/pull/222`,
    );
  });

  it('leaves out a plan the agent set through a code-mode cell: the plan is shown on its own (rollout lines 273-276)', () => {
    const rollout = readCorpus('codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl').split('\n');
    // the cell of line 273 calls `tools.update_plan` and runs no command; its result is at line 274
    expect(rollout[272]).toContain('"input":"const r = await tools.update_plan({explanation:');
    const last = readSession(parseCodexRollout(rollout.slice(0, 276).join('\n')).entries).summaries.findLast(
      (s) => s.kind === 'last_message',
    );
    expect(last?.text).toMatch(/\n\nAfter it \(after \d+ earlier calls\): `/);
    expect(last?.text).not.toContain('update_plan');
  });

  it("says a wait that ran out of time timed out, not that it worked (Codex's wait_agent, a rollout cut at line 271)", () => {
    const rollout = readCorpus('codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl');
    const cut = rollout.split('\n').slice(0, 271).join('\n');
    const last = readSession(parseCodexRollout(cut).entries).summaries.findLast(
      (s) => s.kind !== 'interrupted',
    );
    expect(last?.text).toMatch(
      /\n\nAfter it \(after \d+ earlier calls\): `wait_agent` worked; `wait_agent` timed out \(2 times\); `list_agents` worked; `wait_agent` worked\n\nSub-agents answered in its turn /,
    );
  });

  it('says nothing more when every call returned', () => {
    const said = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:02.000Z',
      message: { id: 'm9', role: 'assistant', content: [{ type: 'text', text: 'All done.' }] },
    });
    const text = [...claudeTool('b1', 'Bash', { command: 'npm test' }, 'ok'), said].join('\n');
    expect(lastWord(text)?.text).toBe('All done.');
    // the turn ended on it
    expect(lastWord(text)?.turn_ended).toBe(true);
  });

  it('says the turn did not end on it when the agent went on, or the user stopped it', () => {
    const said = (text: string) =>
      JSON.stringify({
        type: 'assistant',
        timestamp: '2026-01-01T00:00:02.000Z',
        message: { id: 'm8', role: 'assistant', content: [{ type: 'text', text }] },
      });
    const stopped = JSON.stringify({
      type: 'user',
      timestamp: '2026-01-01T00:00:04.000Z',
      message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
    });
    const wentOn = [
      said("I'll start by reading auth.ts."),
      ...claudeTool('r1', 'Read', { file_path: 'auth.ts' }, 'x'),
    ];
    // what came of the calls after it is newer than its words: said after them
    expect(lastWord(wentOn.join('\n'))).toMatchObject({
      text: "I'll start by reading auth.ts.\n\nAfter it: `Read: auth.ts` worked",
      turn_ended: false,
    });
    expect(lastWord([said('Thinking about the layout.'), stopped].join('\n'))?.turn_ended).toBe(false);
  });
});
