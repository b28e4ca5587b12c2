import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexConversation } from '../helpers/codex-conversation.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace, type Baton } from '../helpers/hook-workspace.js';

/**
 * A usage limit cut a turn off before the agent said anything, in a new conversation on the workflow (its agent said
 * nothing before it); then the user typed "continue" in that same conversation. The last thing the agent said is the
 * previous conversation's reply to another request: "continue" answers no message of it, but asks to go on with the
 * request the limit cut off. Codex (its limit only in its rollout, read at Stop) and Claude Code (its StopFailure)
 * alike, through `baton hook` and `baton context`.
 */
const section = (context: string, heading: string) =>
  new RegExp(`### ${heading}[^\\n]*\\n([\\s\\S]*?)(?=\\n### |\\n---|$)`).exec(context)?.[1] ?? '';

const README = 'thanks, now update the README';
const reply = 'All three operations are done, tested and committed.';

/** The work of the conversation before: three operations committed in the repository. */
function commitCalc(repo: string) {
  writeFileSync(join(repo, 'calc.js'), 'export const add = (a, b) => a + b;\n');
  gitIn(repo, 'add', 'calc.js');
  gitIn(repo, 'commit', '-q', '-m', 'calc: add, subtract, multiply');
}

/** Codex: the conversation before, then conversation F, whose first turn the limit cuts off; then "continue". */
async function codexFlow(continueLimited: boolean): Promise<{ baton: Baton; context: string }> {
  const { repo, baton } = hookWorkspace();
  expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
  const before = codexConversation(repo, baton, '019e1625-0000-7000-8000-0000000000e1');
  before.turnStarts();
  await before.hook('SessionStart', { source: 'startup' });
  await before.ask('add add, subtract and multiply to calc.js, with tests');
  commitCalc(repo);
  before.call('c1', 'exec_command', { cmd: 'git commit -am "calc: add, subtract, multiply"' }, 'ok');
  await before.stop(reply);

  const f = codexConversation(repo, baton, '019e1625-0000-7000-8000-0000000000f4');
  const limit = () =>
    f.write(
      f.line('event_msg', {
        type: 'error',
        message: "You've hit your usage limit. Upgrade to Pro or try again in 2 hours.",
      }),
    );
  f.turnStarts();
  await f.hook('SessionStart', { source: 'startup' });
  await f.ask(README);
  limit();
  const stopped = await f.hook('Stop', { stop_hook_active: false, last_assistant_message: null });
  expect(stopped.stderr).toMatch(/stopped by a usage limit of Codex/);
  expect((await baton(['status'])).stdout).toMatch(/agent: stopped by a usage limit of Codex/);
  f.turnStarts();
  await f.ask('continue');
  if (continueLimited) {
    limit();
    await f.hook('Stop', { stop_hook_active: false, last_assistant_message: null });
  }
  const r = await baton(['context']);
  expect(r.code, r.stderr).toBe(0);
  return { baton, context: r.stdout };
}

/**
 * Claude Code: the same two conversations, the limit's notice written as the agent's message, then StopFailure; `quit`:
 * the user quit the first (SessionEnd), which finished its workflow, so F's is a new one.
 */
async function claudeFlow(quit: boolean): Promise<string> {
  const { repo, baton } = hookWorkspace();
  expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
  const folder = tempDir('baton-tr-');
  const conversation = (id: string) => {
    const transcript = join(folder, `${id}.jsonl`);
    writeFileSync(transcript, '');
    const write = (o: Record<string, unknown>) =>
      appendFileSync(
        transcript,
        `${JSON.stringify({ sessionId: id, cwd: repo, timestamp: new Date().toISOString(), ...o })}\n`,
      );
    const hook = agentHooks(baton, { session_id: id, cwd: repo, transcript_path: transcript });
    const ask = async (prompt: string) => {
      write({ type: 'user', message: { role: 'user', content: prompt } });
      return hook('UserPromptSubmit', { prompt });
    };
    return { write, hook, ask };
  };
  const before = conversation('c-before');
  await before.hook('SessionStart', { source: 'startup' });
  await before.ask('add add, subtract and multiply to calc.js, with tests');
  commitCalc(repo);
  before.write({
    type: 'assistant',
    message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: reply }] },
  });
  await before.hook('Stop', { stop_hook_active: false, last_assistant_message: reply });
  if (quit) await before.hook('SessionEnd', { reason: 'prompt_input_exit' });

  const f = conversation('c-f');
  await f.hook('SessionStart', { source: 'startup' });
  await f.ask(README);
  const notice = "You've hit your limit · resets 3pm (UTC)";
  f.write({
    type: 'assistant',
    isApiErrorMessage: true,
    error: 'rate_limit',
    message: { id: 'e1', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: notice }] },
  });
  const stopped = await f.hook('StopFailure', { error: 'rate_limit', last_assistant_message: notice });
  expect(stopped.stderr).toMatch(/stopped by a usage limit of Claude Code/);
  await f.ask('continue');
  const r = await baton(['context']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

const resumedNext = `No task is recorded, and the agent's turn on the user's latest request (the last of the Later requests, under Goal) was cut off by a usage limit before it said anything; the user said "continue" since: go on with that request, first checking what of it already ran.`;

describe('"continue" after a usage limit cut a new conversation\'s first turn off', () => {
  it('Codex: the Last State says the README turn was cut off, and "continue" goes on with it', async () => {
    const { context } = await codexFlow(false);
    const last = section(context, 'Last State');
    // the older reply is kept, and what came after it is said under it: the limit cut the README turn off
    expect(last).toContain(reply);
    expect(last).toContain(
      `Then the user said "${README}", and that turn was cut off by a usage limit before the agent said anything.`,
    );
    // "continue" asks to go on with the request the limit cut off, not with what the old message proposed
    expect(section(context, 'What to Do Next')).toMatch(
      new RegExp(`^${resumedNext.replace(/[()"]/g, '\\$&')}`),
    );
    expect(context).not.toContain('go on with what it proposed');
    expect(section(context, 'Goal')).toContain(`  - "${README}"`);
  });

  it('Codex: "continue" stopped by the limit too, the limit said once, as why the session ended', async () => {
    const { context } = await codexFlow(true);
    expect(section(context, 'Last State')).toContain(
      `Then the user said "${README}", and that turn was cut off before the agent said anything (by what: What to Do Next says).`,
    );
    expect(section(context, 'What to Do Next')).toMatch(
      /^No task is recorded, and the agent's turn on the user's latest request \(the last of the Later requests, under Goal\) was cut off before it said anything \(by what: why the previous session ended, said next\): go on with that request, first checking what of it already ran\. The previous session ended because: stopped by a usage limit of Codex, session 2, resets at /,
    );
    expect(context.match(/usage limit/g)).toHaveLength(1);
    expect(context).not.toContain('go on with what it proposed');
  });

  it('Claude Code: the same, its limit read from StopFailure', async () => {
    const context = await claudeFlow(false);
    expect(section(context, 'Last State')).toContain(reply);
    expect(section(context, 'Last State')).toContain(
      `Then the user said "${README}", and that turn was cut off by a usage limit before the agent said anything.`,
    );
    expect(section(context, 'What to Do Next')).toMatch(
      new RegExp(`^${resumedNext.replace(/[()"]/g, '\\$&')}`),
    );
    expect(context).not.toContain('go on with what it proposed');
  });

  it('Claude Code, the first conversation quit (a new workflow): the cut-off turn alone is the Last State', async () => {
    const context = await claudeFlow(true);
    expect(context).toMatch(
      /### Last State \(cut off before the agent said anything, [^)]+\)\nThe turn on the user's request "thanks, now update the README" was cut off by a usage limit before the agent said anything\.\n/,
    );
    expect(section(context, 'What to Do Next')).toMatch(
      /^No task is recorded, and the agent's turn on the user's latest request \(Goal\) was cut off by a usage limit before it said anything; the user said "continue" since: go on with that request, first checking what of it already ran\./,
    );
  });
});
