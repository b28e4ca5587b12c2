import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pidAlive } from '../helpers/agent-workspace.js';
import { codexConversation } from '../helpers/codex-conversation.js';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, stepsSession } from '../helpers/hook-workspace.js';
import { standInAgent } from '../helpers/stand-in-agent.js';
import { until } from '../helpers/until.js';

/**
 * A Claude Code conversation whose turn on "Add subtract to calc.js" ended (its list: one step done, one under way)
 * under Claude Code's process, which stays open at its prompt: a stand-in agent that ran the Stop hook.
 */
async function turnEndedOpen() {
  const ws = hookWorkspace();
  const { hook, todo } = stepsSession(ws);
  const transcript = join(tempDir('baton-transcript-'), 'S1.jsonl');
  writeFileSync(transcript, '');
  await hook('SessionStart', { source: 'startup', transcript_path: transcript });
  await hook('UserPromptSubmit', { prompt: 'Add subtract to calc.js', transcript_path: transcript });
  await todo('t1', 'completed', 'in_progress');
  const agent = await standInAgent(ws.repo, ws.env)('Stop', {
    session_id: 'S1',
    transcript_path: transcript,
    stop_hook_active: false,
    last_assistant_message: 'Subtract is in; its test comes next.',
  });
  return { baton: ws.baton, agent };
}

/**
 * `baton pause` ends Baton's session, not the agent's conversation: while that conversation is open, the person goes
 * on by sending their next prompt there, not by opening the agent again. `baton pause` and `baton status` say the one
 * that holds, from what this machine's hooks saw of the conversation (its SessionEnd, its agent's process).
 */
describe('how a paused workflow goes on', () => {
  it("says to send the next prompt in Claude Code's conversation while it is open, and to open it once it is gone", async () => {
    const { baton, agent } = await turnEndedOpen();
    try {
      const paused = await baton(['pause', '--reason', 'end of day']);
      expect(paused.code, paused.stderr).toBe(0);
      const id = /^paused (\S+)/.exec(paused.stdout)?.[1];
      const open = `to go on: send your next prompt in the Claude Code session still open here (the hooks resume ${id}), or \`baton run -w ${id}\` (Baton runs the agent)`;
      expect(paused.stdout).toContain(open);
      expect((await baton(['status'])).stdout).toContain(open);
      const json = (await baton(['pause', '--json'])).json<{ conversation_open: boolean | null }>();
      expect(json.conversation_open).toBe(true);

      // Claude Code quit without a SessionEnd (a closed terminal): a new conversation goes on with it
      process.kill(agent.pid, 'SIGKILL');
      await until('the agent process to be gone', () => !pidAlive(agent.pid));
      expect((await baton(['status'])).stdout).toContain(
        `to go on: open Claude Code here and send a prompt (the hooks resume ${id}), or \`baton run -w ${id}\` (Baton runs the agent)`,
      );
    } finally {
      if (pidAlive(agent.pid)) process.kill(agent.pid, 'SIGKILL');
    }
  });

  it('has `baton resume` of a paused workflow say that the agent conversation the hooks follow goes on with it', async () => {
    const { baton, agent } = await turnEndedOpen();
    try {
      expect((await baton(['pause', '--reason', 'end of day'])).code).toBe(0);
      // the README's step after a pause: it starts Baton's next session, but no agent, and prints a briefing
      const resumed = await baton(['resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      const id = /^resumed (\S+):/m.exec(resumed.stdout)?.[1];
      expect(resumed.stdout).toContain(
        `to go on: send your next prompt in the Claude Code session still open here: its hooks follow ${id} and go on with this session (the briefing below is for an agent you start yourself)`,
      );
      const json = (await baton(['pause', '--force', '--json'])).json<{ status: string }>();
      expect(json.status).toBe('paused');
      const again = (await baton(['resume', '--json'])).json<{
        following_agent: string | null;
        conversation_open: boolean | null;
      }>();
      expect(again).toMatchObject({ following_agent: 'claude-code', conversation_open: true });

      // paused again after the resume, it is still that conversation's to go on with, not one made by hand
      const pausedAgain = await baton(['pause', '--force']);
      expect(pausedAgain.code).toBe(0);
      expect(pausedAgain.stdout).toContain(
        `to go on: send your next prompt in the Claude Code session still open here (the hooks resume ${id})`,
      );

      // the conversation is gone (a closed terminal): a new one goes on with it
      process.kill(agent.pid, 'SIGKILL');
      await until('the agent process to be gone', () => !pidAlive(agent.pid));
      expect((await baton(['resume'])).stdout).toContain(
        `to go on: open Claude Code here and send a prompt: its hooks follow ${id} and go on with this session`,
      );
    } finally {
      if (pidAlive(agent.pid)) process.kill(agent.pid, 'SIGKILL');
    }
  });

  it('has `baton recover` say how it goes on in the same words as `baton resume`, a checkpoint restore too', async () => {
    const { baton, agent } = await turnEndedOpen();
    try {
      expect((await baton(['checkpoint', '--name', 'start'])).code).toBe(0);
      expect((await baton(['pause', '--reason', 'end of day'])).code).toBe(0);
      const recovered = await baton(['recover', '--option', 'live_state']);
      expect(recovered.code, recovered.stderr).toBe(0);
      const id = /^resumed (\S+):/m.exec(recovered.stdout)?.[1];
      const goOn = `to go on: send your next prompt in the Claude Code session still open here: its hooks follow ${id} and go on with this session (the briefing below is for an agent you start yourself)`;
      expect(recovered.stdout).toContain(goOn);
      expect((await baton(['pause', '--force'])).code).toBe(0);
      const json = (await baton(['recover', '--option', 'fresh', '--json'])).json<Record<string, unknown>>();
      expect(json).toMatchObject({
        option: 'fresh',
        following_agent: 'claude-code',
        conversation_open: true,
      });
      expect((await baton(['pause', '--force'])).code).toBe(0);
      const restored = await baton(['recover', '--checkpoint', 'start', '--yes']);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(goOn);
      // paused again after a recovery, it is still that conversation's to go on with, not one made by hand
      const pausedAgain = await baton(['pause', '--force']);
      expect(pausedAgain.stdout).toContain(
        `to go on: send your next prompt in the Claude Code session still open here (the hooks resume ${id})`,
      );
    } finally {
      if (pidAlive(agent.pid)) process.kill(agent.pid, 'SIGKILL');
    }
  });

  it('says both ways for a Codex conversation whose process is not known, and to open Codex once it ended', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const c = codexConversation(repo, baton, '019e2000-0000-7000-8000-0000000000c1');
    c.start();
    await c.hook('SessionStart', { source: 'startup' });
    c.turnStarts();
    await c.ask('Add subtract to calc.js');
    c.plan('1', [
      ['Add subtract to calc.js', 'completed'],
      ['Test subtract', 'pending'],
    ]);
    expect((await c.stop('Subtract is in; its test comes next.')).code).toBe(0);
    // hooks run by no Codex process this machine can see (as a script drives them): whether it is open is not known
    const paused = await baton(['pause', '--reason', 'end of day']);
    expect(paused.code, paused.stderr).toBe(0);
    const id = /^paused (\S+)/.exec(paused.stdout)?.[1];
    expect(paused.stdout).toContain(
      `to go on: send your next prompt in the Codex session if it is still open, else open Codex here and send one (the hooks resume ${id}), or \`baton run -w ${id}\` (Baton runs the agent)`,
    );
    // the user quit Codex (its SessionEnd): only a new conversation goes on with it
    expect((await c.hook('SessionEnd', { reason: 'prompt_input_exit' })).code).toBe(0);
    expect((await baton(['status'])).stdout).toContain(
      `to go on: open Codex here and send a prompt (the hooks resume ${id}), or \`baton run -w ${id}\` (Baton runs the agent)`,
    );
  });
});
