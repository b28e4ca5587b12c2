import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

// A real session (codemie-code-2 session-196820da): the agent answered with a long implementation plan ending "Ready
// to start with **Phase 1, Step 1.1**?", the user asked "create document in /specs folder", and the agent went to
// work on that without a word (`ls` of specs/ printing "Directory not found", a `find`, then an `ls` and a Glob that
// never returned): the session is cut off there. The plan is no answer to that request, and what the agent did on it
// is newer than the plan.

const rel = 'claude-code/codemie-code-2/session-196820da.jsonl';
const SESSION = '196820da-cb4a-4de5-a0a6-7fd0e1d5a1ae';

describe('the user spoke again after the agent’s last message, and the session was cut off in that turn', () => {
  it('says so under the message, with what the calls on it came to, at the default budget and at 400 tokens', async () => {
    const lines = readCorpus(rel).split('\n');
    const { baton, repo } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const transcript = join(tempDir('baton-transcript-'), `${SESSION}.jsonl`);
    writeFileSync(transcript, '');
    const hook = agentHooks(baton, { cwd: repo, session_id: SESSION, transcript_path: transcript });
    await hook('SessionStart', { source: 'startup' });
    // through the plan (line 210), its turn ended
    appendFileSync(transcript, `${lines.slice(0, 211).join('\n')}\n`);
    expect((await hook('Stop', { stop_hook_active: false })).code).toBe(0);
    appendFileSync(transcript, `${lines[211]}\n`);
    await hook('UserPromptSubmit', { prompt: 'create document in /specs folder' });
    // the agent's calls on it, the last two never returning: the process is gone, no Stop
    appendFileSync(transcript, `${lines.slice(212, 220).join('\n')}\n`);

    const next = await baton(
      ['hook', 'SessionStart'],
      JSON.stringify({ cwd: repo, session_id: 'next-1', hook_event_name: 'SessionStart', source: 'startup' }),
    );
    const briefing = JSON.parse(next.stdout).hookSpecificOutput.additionalContext as string;
    const spoke =
      'Then the user said "create document in /specs folder", and the agent’s calls on it, with no word yet: `Bash: ls -la /Users/user/repo/specs/ 2>/dev/null || echo "Directory not found"` worked; `Bash: find /Users/user/repo -type d -name "spec*" 2>/dev/null | head -5` worked'.replace(
        '’',
        "'",
      );
    const open =
      'The transcript ends before these calls returned (check whether they ran): `Bash: ls -la /Users/user/repo/ | grep -E "docs|spec|design" | head -10`; `Glob: /Users/user/repo`';
    const lastState = (text: string) =>
      text.slice(text.indexOf('### Last State'), text.indexOf('\n### ', text.indexOf('### Last State') + 1));
    for (const text of [briefing, (await baton(['context'])).stdout]) {
      expect(lastState(text), text).toContain(spoke);
      expect(lastState(text), text).toContain(open);
      expect(text).toContain('go on from the latest request (the last of the Later requests, under Goal)');
    }
    // at 400 tokens the plan gives way; what came after it stays
    const small = (await baton(['context', '--budget', '400'])).stdout;
    expect(lastState(small), small).toContain('Then the user said "create document in /specs folder"');
    expect(lastState(small), small).toContain('`Glob: /Users/user/repo`');
  });
});
