import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookWorkspace } from '../helpers/hook-workspace.js';
import { tempDir } from '../helpers/git-repo.js';

type Json = Record<string, unknown>;

function workspace() {
  const { repo, baton } = hookWorkspace();
  const hook = (event: string, fields: Json, agent?: 'codex') =>
    baton(
      ['hook', event, ...(agent ? ['--agent', agent] : [])],
      JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }),
    );
  return { repo, hook, baton };
}

interface HookOut {
  systemMessage?: string;
  hookSpecificOutput?: { additionalContext?: string };
}
const parsed = (stdout: string): HookOut => (stdout.trim() ? (JSON.parse(stdout) as HookOut) : {});

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/**
 * Claude Code stops on its usage limit (the transcript's own notice, its Stop's last message: no StopFailure), resetting
 * three hours from now; the user switches to Codex in the same worktree, which is asked and answers.
 */
async function claudeLimitThenCodex() {
  const w = workspace();
  const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3 * 3_600_000);
  const h = reset.getUTCHours();
  const clock = `${h % 12 || 12}:${String(reset.getUTCMinutes()).padStart(2, '0')}${h < 12 ? 'am' : 'pm'}`;
  const notice = `You've hit your session limit · resets ${clock} (UTC)`;
  const transcript = join(tempDir('baton-tr-'), 'claude-1.jsonl');
  const entry = (o: Json, at: string) =>
    JSON.stringify({ sessionId: 'claude-1', cwd: w.repo, timestamp: at, ...o });
  writeFileSync(
    transcript,
    `${[
      entry({ type: 'user', message: { role: 'user', content: 'add a CLI entry point' } }, ago(9)),
      entry(
        {
          type: 'assistant',
          message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'The parser is in.' }] },
        },
        ago(8),
      ),
      entry(
        {
          type: 'assistant',
          isApiErrorMessage: true,
          error: 'rate_limit',
          message: {
            id: 'e1',
            model: '<synthetic>',
            role: 'assistant',
            content: [{ type: 'text', text: notice }],
          },
        },
        ago(7),
      ),
    ].join('\n')}\n`,
  );
  const claude = { session_id: 'claude-1', transcript_path: transcript };
  await w.hook('SessionStart', { ...claude, source: 'startup' });
  await w.hook('UserPromptSubmit', { ...claude, prompt: 'add a CLI entry point' });
  const stop = await w.hook('Stop', { ...claude, last_assistant_message: notice });
  expect(stop.stderr).toContain('stopped by a usage limit of Claude Code, session 1, resets at');
  // Codex goes on (SessionStart, UserPromptSubmit, Stop: the hooks it has)
  const id = '019e1625-789d-76c0-80ab-3724b5ddb8aa';
  const rollout = join(tempDir('baton-rollout-'), `rollout-2026-12-07T22-00-00-${id}.jsonl`);
  writeFileSync(rollout, '');
  const codex = { session_id: id, turn_id: 't1', transcript_path: rollout };
  const started = await w.hook('SessionStart', { ...codex, source: 'startup' }, 'codex');
  await w.hook('UserPromptSubmit', { ...codex, prompt: 'go on with the CLI' }, 'codex');
  await w.hook('Stop', { ...codex, last_assistant_message: 'src/cli.js is written.' }, 'codex');
  return {
    ...w,
    claude,
    transcript,
    started,
    limit: `usage limit of Claude Code, session 1, resets at ${reset.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  };
}

describe("Claude Code's usage limit, while Codex goes on", () => {
  it('stays in `baton status`, naming Claude Code', async () => {
    const { baton, limit } = await claudeLimitThenCodex();
    const status = await baton(['status']);
    expect(status.stdout).toContain(`agent: stopped by a ${limit}`);
  });

  it('is told to a Claude Code conversation resumed before the reset, and to one started', async () => {
    const { hook, claude, limit } = await claudeLimitThenCodex();
    const resumed = parsed((await hook('SessionStart', { ...claude, source: 'resume' })).stdout);
    expect(resumed.systemMessage).toContain(`Baton: the work was stopped by a ${limit}; until then`);
    expect(resumed.hookSpecificOutput?.additionalContext).toContain(
      `Your own usage limit has not reset: stopped by a ${limit}`,
    );
    const started = parsed(
      (await hook('SessionStart', { session_id: 'claude-2', source: 'startup' })).stdout,
    );
    expect(started.systemMessage).toContain(`the work was stopped by a ${limit}`);
    expect(started.hookSpecificOutput?.additionalContext).toContain(
      `Your own usage limit has not reset: stopped by a ${limit}`,
    );
  });

  it('is over once Claude Code works again', async () => {
    const { hook, baton, claude } = await claudeLimitThenCodex();
    await hook('UserPromptSubmit', { ...claude, prompt: 'the limit reset: go on' });
    await hook('Stop', { ...claude, last_assistant_message: 'The CLI has its --help now.' });
    expect((await baton(['status'])).stdout).not.toContain('agent: stopped by');
  });
});

describe('the Last State of a briefing for another agent', () => {
  it('names the agent that said it', async () => {
    const { hook, claude, started } = await claudeLimitThenCodex();
    // Codex, going on after Claude Code, is briefed on what Claude Code said last
    expect(parsed(started.stdout).hookSpecificOutput?.additionalContext).toMatch(
      /### Last State \(Claude Code's last message, /,
    );
    // Claude Code, back, is briefed on what Codex said last
    const back = parsed((await hook('SessionStart', { ...claude, source: 'resume' })).stdout);
    expect(back.hookSpecificOutput?.additionalContext).toMatch(/### Last State \(Codex's last message, /);
  });
});
