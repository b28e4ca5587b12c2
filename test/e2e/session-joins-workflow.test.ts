import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

type Json = Record<string, unknown>;

function workspace() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
  const hook = (event: string, fields: Json, agent?: 'codex') =>
    runCli(['hook', event, ...(agent ? ['--agent', agent] : [])], {
      cwd: repo,
      env,
      input: JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }),
    });
  return { repo, hook };
}

const told = (stdout: string) =>
  stdout.trim() ? ((JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '') : '';

describe('a new conversation that joins the workflow another conversation started', () => {
  // A Codex conversation opened a workflow and recorded nothing in it (its Stop could not import the rollout); the
  // next Claude Code session in the worktree goes on in that workflow: the user is told, with the way out.
  for (const asked of [false, true])
    it(`is said to the user ${asked ? 'when the workflow holds a request' : 'though nothing is recorded in the workflow yet'}`, async () => {
      const { hook } = workspace();
      const id = '019e1625-789d-76c0-80ab-3724b5ddb799';
      const codex = {
        session_id: id,
        turn_id: 't1',
        transcript_path: join(tempDir('baton-rollout-'), `rollout-2026-11-30T09-00-00-${id}.jsonl`),
      };
      const start = await hook('SessionStart', { ...codex, source: 'startup' }, 'codex');
      expect(start.stderr).toMatch(/following this session as workflow (wf-\S+)\)/);
      const workflow = /workflow (wf-[^\s)]+)/.exec(start.stderr)![1]!;
      if (asked) await hook('UserPromptSubmit', { ...codex, prompt: 'add a licence' }, 'codex');
      const stop = await hook('Stop', { ...codex, last_assistant_message: 'Done.' }, 'codex');
      expect(told(stop.stdout)).toMatch(/^Baton: the Stop hook failed: transcript not imported/);

      const next = await hook('SessionStart', { session_id: 'claude-2', source: 'startup' });
      expect(next.code).toBe(0);
      expect(next.stderr).toContain(`following workflow ${workflow} as session 2`);
      expect(told(next.stdout)).toMatch(
        new RegExp(
          `^Baton continues workflow ${workflow} ".+" in this conversation \\(session 2\\); if this conversation is for other work, \`baton abandon -w ${workflow}\` ends that workflow and your next prompt starts a new one$`,
        ),
      );
    });
});

/**
 * Claude Code works, then stops on its usage limit, its window left open; Codex goes on in the same worktree and does
 * work (a step of its plan done). What the Claude Code conversation then meets, and how to touch its transcript.
 */
async function limitThenCodex() {
  const { hook } = workspace();
  const stamp = (l: string) =>
    `${JSON.stringify({ ...JSON.parse(l), timestamp: new Date().toISOString() })}\n`;
  const said = (id: string, text: string) =>
    JSON.stringify({
      type: 'assistant',
      message: {
        id,
        role: 'assistant',
        content: [{ type: 'text', text }],
        usage: { input_tokens: 2000, output_tokens: 40 },
      },
    });
  const transcript = (sid: string, request: string, lines: string[]) => {
    const path = join(tempDir('baton-tr-'), `${sid}.jsonl`);
    writeFileSync(
      path,
      [JSON.stringify({ type: 'user', message: { role: 'user', content: request } }), ...lines]
        .map(stamp)
        .join(''),
    );
    return path;
  };
  // Claude Code works, then stops on its usage limit; its window stays open
  const claude = { session_id: 'claude-1' };
  const first = transcript('claude-1', 'add a CLI entry point', [said('m1', 'Starting with the parser.')]);
  await hook('SessionStart', { ...claude, source: 'startup', transcript_path: first });
  await hook('UserPromptSubmit', { ...claude, transcript_path: first, prompt: 'add a CLI entry point' });
  await hook('StopFailure', {
    ...claude,
    transcript_path: first,
    error: 'rate_limit',
    last_assistant_message: "You've hit your session limit · resets 7pm (UTC)",
  });
  // Codex goes on and writes the CLI
  const id = '019e1625-789d-76c0-80ab-3724b5ddb800';
  const rollout = join(tempDir('baton-rollout-'), `rollout-2026-11-30T09-00-00-${id}.jsonl`);
  writeFileSync(rollout, '');
  const codex = { session_id: id, turn_id: 't1', transcript_path: rollout };
  const started = await hook('SessionStart', { ...codex, source: 'startup' }, 'codex');
  expect(started.code, started.stderr).toBe(0);
  // the user asks Codex to go on (Codex sends no PostToolUse for its plan: what it did is read at its Stop)
  await hook('UserPromptSubmit', { ...codex, prompt: 'go on with the CLI: write src/cli.js' }, 'codex');
  await hook('Stop', { ...codex, last_assistant_message: 'src/cli.js is written and committed.' }, 'codex');

  return { hook, claude, first, id, stamp };
}

describe('a conversation left open while another agent went on', () => {
  it("gets the briefing with its next prompt, told that the other's work is not in its history", async () => {
    const { hook, claude, first, stamp } = await limitThenCodex();
    // back in the Claude Code window: its history ends at the limit
    appendFileSync(
      first,
      stamp(
        JSON.stringify({
          type: 'user',
          message: { role: 'user', content: 'The limit has reset. Continue.' },
        }),
      ),
    );
    const back = await hook('UserPromptSubmit', {
      ...claude,
      transcript_path: first,
      prompt: 'The limit has reset. Continue.',
    });
    expect(back.code, back.stderr).toBe(0);
    const out = JSON.parse(back.stdout) as {
      systemMessage?: string;
      hookSpecificOutput?: { additionalContext?: string };
    };
    expect(out.systemMessage).toContain(
      `Baton: Codex (Baton session 2, asked "go on with the CLI: write src/cli.js") worked on this workflow since this conversation's last turn`,
    );
    const briefing = out.hookSpecificOutput?.additionalContext ?? '';
    expect(briefing).toMatch(
      new RegExp(
        `^Since your last turn, Codex \\(Baton session 2, asked "go on with the CLI: write src/cli.js"\\) worked on this workflow in another conversation`,
      ),
    );
    expect(briefing).toContain('go on with the CLI: write src/cli.js');
    // the next prompt in it is told nothing again
    const again = await hook('UserPromptSubmit', {
      ...claude,
      transcript_path: first,
      prompt: 'and add --help',
    });
    expect(again.stdout).not.toContain('Since your last turn');
  });
});

describe('a conversation reopened (--resume) after another agent went on', () => {
  it("is told, before its briefing, that the other's work is not in its history", async () => {
    const { hook, claude, first } = await limitThenCodex();
    const back = await hook('SessionStart', { ...claude, source: 'resume', transcript_path: first });
    expect(back.code, back.stderr).toBe(0);
    const out = JSON.parse(back.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
    const briefing = out.hookSpecificOutput?.additionalContext ?? '';
    expect(briefing).toMatch(
      new RegExp(
        `^Since your last turn, Codex \\(Baton session 2, asked "go on with the CLI: write src/cli.js"\\) worked on this workflow in another conversation`,
      ),
    );
    expect(briefing).toContain('go on with the CLI: write src/cli.js');
  });
});

describe("another agent's usage limit", () => {
  it('is not said to stop the agent the user went back to', async () => {
    const { hook } = workspace();
    // Claude Code works (its list half done) and quits; Codex goes on and stops on its own limit, hours ahead
    const claude = { session_id: 'claude-9' };
    await hook('SessionStart', { ...claude, source: 'startup' });
    await hook('UserPromptSubmit', { ...claude, prompt: 'add a parser and a CLI' });
    const todos = [
      { content: 'Write the parser', status: 'completed', activeForm: 'Writing the parser' },
      { content: 'Write the CLI', status: 'pending', activeForm: 'Writing the CLI' },
    ];
    await hook('PostToolUse', {
      ...claude,
      tool_name: 'TodoWrite',
      tool_input: { todos },
      tool_response: 'ok',
    });
    await hook('Stop', { ...claude, last_assistant_message: 'The parser is in; the CLI is next.' });
    await hook('SessionEnd', { ...claude, reason: 'prompt_input_exit' });
    const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3 * 3_600_000);
    const h = reset.getUTCHours();
    const clock = `${h % 12 || 12}:${String(reset.getUTCMinutes()).padStart(2, '0')}${h < 12 ? 'am' : 'pm'}`;
    const codex = { session_id: '019e1625-789d-76c0-80ab-3724b5ddb801', turn_id: 't1' };
    await hook('SessionStart', { ...codex, source: 'startup' }, 'codex');
    await hook('UserPromptSubmit', { ...codex, prompt: 'go on with the CLI' }, 'codex');
    const notice = `You've hit your session limit · resets ${clock} (UTC)`;
    await hook('StopFailure', { ...codex, error: 'rate_limit', last_assistant_message: notice }, 'codex');
    // back to Claude Code, its conversation reopened: Codex's limit is not its own
    const back = await hook('SessionStart', { ...claude, source: 'resume' });
    expect(back.code, back.stderr).toBe(0);
    expect(told(back.stdout)).not.toMatch(/may stop again at once/);
    // its briefing names whose limit stopped the last session: Claude Code's own is not said to be met
    const out = JSON.parse(back.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
    expect(out.hookSpecificOutput?.additionalContext).toContain(
      'The previous session ended because: stopped by a usage limit of Codex, session 2, resets at',
    );
    // Codex itself, reopened before the reset, is told
    const again = await hook('SessionStart', { ...codex, source: 'resume' }, 'codex');
    expect(told(again.stdout)).toMatch(
      /usage limit of Codex, session 2, resets at .+; until then the agent may stop again at once/,
    );
  });
});
