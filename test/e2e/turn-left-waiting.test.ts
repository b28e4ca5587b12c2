import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';
import { claudeTool } from '../helpers/transcript-lines.js';

// A turn that ends waiting: the agent opened a pull request, left `gh pr checks` running in the background and said
// it merges once CI passes; the user quits. The work is not over, and the next conversation is told what was left
// running, though the Stop hook's own copy of the agent's last words holds none of it.

type Json = Record<string, any>;

const SESSION = '0b1e5a1d-0000-4000-8000-000000000001';
const said = (text: string) =>
  JSON.stringify({
    type: 'assistant',
    message: { id: `m-${text.length}`, role: 'assistant', content: [{ type: 'text', text }] },
  });
const asked = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } });

/** A transcript line as Claude Code writes it: of its session, stamped. */
const ofSession = (line: string) =>
  JSON.stringify({ sessionId: SESSION, timestamp: new Date().toISOString(), ...JSON.parse(line) });

async function quitWaiting(command: string, last: string) {
  const { baton, repo } = hookWorkspace();
  const transcript = join(tempDir('baton-transcript-'), `${SESSION}.jsonl`);
  writeFileSync(transcript, '');
  const hook = agentHooks(baton, { cwd: repo, session_id: SESSION, transcript_path: transcript });
  await hook('SessionStart', { source: 'startup' });
  appendFileSync(transcript, `${ofSession(asked('open the release PR and merge it when CI is green'))}\n`);
  await hook('UserPromptSubmit', { prompt: 'open the release PR and merge it when CI is green' });
  const started = claudeTool(
    'c1',
    'Bash',
    { command, run_in_background: true },
    'Command running in background with ID: bg1',
  );
  appendFileSync(transcript, `${[...started, said(last)].map(ofSession).join('\n')}\n`);
  const stop = await hook('Stop', { stop_hook_active: false, last_assistant_message: last });
  expect(stop.code, stop.stderr).toBe(0);
  await hook('SessionEnd', { reason: 'prompt_input_exit' });
  const next = await baton(
    ['hook', 'SessionStart'],
    JSON.stringify({ cwd: repo, session_id: 'next-1', hook_event_name: 'SessionStart', source: 'startup' }),
  );
  const out = JSON.parse(next.stdout) as Json;
  return { out, briefing: (out.hookSpecificOutput?.additionalContext ?? '') as string };
}

describe('a turn that ended waiting on a command it left running', () => {
  it('keeps the work open after a quit, and the next conversation is told what was left running', async () => {
    const { out, briefing } = await quitWaiting(
      'sleep 120 && gh pr checks 234 2>/dev/null',
      'PR #234 is open; I merge it once CI passes.',
    );
    expect(out.systemMessage).toMatch(/^Baton continues workflow \S+ /);
    expect(briefing).not.toContain('Finished Workflow');
    expect(briefing).toContain('PR #234 is open; I merge it once CI passes.');
    expect(briefing).toContain(
      'Left running in the background, not seen to end when the transcript ends: `Bash: sleep 120 && gh pr checks 234 2>/dev/null`',
    );
  });

  it('but a server left running is no wait: the answered request is finished work', async () => {
    const { out, briefing } = await quitWaiting('npm run dev', 'The app runs at http://localhost:3000.');
    expect(out.systemMessage).toMatch(/^Baton completed workflow \S+ /);
    expect(briefing).toContain('Finished Workflow');
  });
});

describe('a turn that ended waiting on a sub-agent it started', () => {
  it('tells the next session to get its answer, not to ask the user what comes next', async () => {
    // a real session as it stood when the agent had sent a design review agent off and said it waits for its result
    // ("설계 리뷰 에이전트가 작업 중입니다. 결과를 기다리겠습니다."): the first 296 lines
    const rel = 'claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl';
    const lines = readCorpus(rel).split('\n').slice(0, 296);
    const transcript = join(tempDir('baton-transcript-'), 'session.jsonl');
    writeFileSync(transcript, `${lines.join('\n')}\n`);
    const { baton } = hookWorkspace();
    expect((await baton(['import', transcript])).code).toBe(0);
    const context = (await baton(['context'])).stdout;
    expect(context).toContain(
      'Sub-agents it started had not answered when the transcript ends: design-review',
    );
    const next = context.slice(context.indexOf('### What to Do Next'));
    expect(next).toContain(
      'The agent was waiting on sub-agents it started that had not answered (Last State): get their answers (wait for them, or ask again if they are gone), then go on as its last message says.',
    );
    expect(next).not.toContain('ask the user what comes next');
  });
});
