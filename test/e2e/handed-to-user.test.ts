import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

/**
 * A turn that ends handing the next step to the user's answer without a question mark, as a real Claude Code session
 * did (entirecontext's release loop, in Korean: "'승인'이라고 답변해주시면 Plan 단계로 진행합니다", "reply 'approve' and I
 * go on to the Plan step"): the user quit there, so the workflow waits on their answer and is not completed.
 */
const rel = 'claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl';

/** The transcript's first `n` lines, as the file stood then. */
function transcriptOf(n: number): string {
  const all = readFileSync(corpusPath(rel), 'utf8').split('\n').filter(Boolean);
  const path = join(tempDir('baton-transcript-'), 'session.jsonl');
  writeFileSync(path, `${all.slice(0, n).join('\n')}\n`);
  return path;
}

describe('a turn that hands the next step to the user without a "?"', () => {
  it('keeps the workflow open at a quit, and the next session is told to get the answer first', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const sid = '01m0cv5d-0000-4000-8000-000000000001';
    // up to the Design gate: the design written and reviewed, its last message asks for "승인" (approve)
    const path = transcriptOf(386);
    const hook = agentHooks(baton, { cwd: repo, session_id: sid, transcript_path: path });
    await hook('SessionStart', { source: 'startup' });
    // the requests are read from the transcript at the Stop, with their times: a UserPromptSubmit sent now would be
    // stamped now, months after the recorded answer
    const stop = await hook('Stop', { stop_hook_active: false });
    expect(stop.code, stop.stderr).toBe(0);
    await hook('SessionEnd', { reason: 'prompt_input_exit' });
    const status = (await baton(['status', '--json'])).json<Record<string, any>>();
    expect(status.completes_at_next_start).toBeNull();

    const next = agentHooks(baton, { cwd: repo, session_id: '01m0cv5d-0000-4000-8000-000000000002' });
    const start = await next('SessionStart', { source: 'startup' });
    expect(start.stderr).toMatch(/following workflow .* as session 2/);
    const briefing = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(briefing).toContain('"승인"이라고 답변해주시면 Plan 단계로 진행합니다.');
    expect(briefing).toMatch(
      /### What to Do Next\nThe agent's last message ended waiting on the user's answer \(Last State\): get their answer, then go on from it/,
    );
  });
});
