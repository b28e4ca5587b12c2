import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, agentHooks } from '../helpers/hook-workspace.js';

// What a Stop imports, the session start's catch-up, `baton context` and `baton pause` read too: each says the lines
// of the transcript it skipped (damaged, never read, and its read mark moves past them), as the Stop's note does.

type Json = Record<string, any>;

const SESSION = '196820da-0000-4000-8000-000000000031';
const lines = readFileSync(corpusPath('claude-code/codemie-code-2/session-196820da.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean);
/** The first turn ends on line 113 (the agent's summary); the user's next request is line 115. */
const FIRST_TURN = 114;
/** A line cut in its middle (a disk that filled, a copy interrupted), with whole lines after it. */
const DAMAGED = '{"type":"assistant","message":{"id":"m-cut","role":"assist';

const promptOf = (n: number) => (JSON.parse(lines[n]!) as { message: { content: string } }).message.content;

/** The session's first turn through hooks, then the next turn written with a damaged line and no Stop. */
async function grownWithDamage(ending: string[] = []) {
  const { repo, baton } = hookWorkspace();
  expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
  const transcript = join(tempDir('baton-transcript-'), `${SESSION}.jsonl`);
  const hook = agentHooks(baton, { cwd: repo, session_id: SESSION, transcript_path: transcript });
  writeFileSync(transcript, '');
  await hook('SessionStart', { source: 'startup' });
  appendFileSync(transcript, `${lines.slice(0, 6).join('\n')}\n`);
  await hook('UserPromptSubmit', { prompt: promptOf(5) });
  appendFileSync(transcript, `${lines.slice(6, FIRST_TURN).join('\n')}\n`);
  expect((await hook('Stop', { stop_hook_active: false })).code).toBe(0);
  await hook('UserPromptSubmit', { prompt: promptOf(115) });
  const next = lines.slice(FIRST_TURN);
  appendFileSync(transcript, `${[...next.slice(0, 4), DAMAGED, ...next.slice(4), ...ending].join('\n')}\n`);
  // the line number of the damaged line in the file
  const damagedAt = FIRST_TURN + 5;
  const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
  utimesSync(transcript, past, past);
  return { repo, baton, transcript, damagedAt };
}

const skippedNote = (line: number) =>
  new RegExp(`1 line of the transcript skipped, not read \\(line ${line}: [^)]+\\)`);

describe('a transcript read on another path than its Stop, with a damaged line in what it gained', () => {
  it("a session start's catch-up says the line it skipped, on stderr and in the hook log", async () => {
    const { repo, baton, transcript, damagedAt } = await grownWithDamage();
    const hook = agentHooks(baton, { cwd: repo });
    const start = await hook('SessionStart', {
      session_id: '196820da-0000-4000-8000-000000000032',
      source: 'startup',
    });
    expect(start.code).toBe(0);
    expect(start.stderr).toMatch(
      new RegExp(`gained since its last import; ${skippedNote(damagedAt).source}`),
    );
    expect(start.stderr).toContain(transcript);
    const doctor = (await baton(['doctor', '--json'])).json<Json>();
    const logged = (doctor.last_hooks as Json[]).find((h) => h.event === 'SessionStart');
    expect(logged?.note).toMatch(skippedNote(damagedAt));
  });

  it('baton context, reading what a killed agent left, says the line it skipped', async () => {
    const { baton, damagedAt } = await grownWithDamage();
    const context = await baton(['context']);
    expect(context.code).toBe(0);
    expect(context.stderr).toMatch(
      new RegExp(`gained since Baton last read it; ${skippedNote(damagedAt).source}`),
    );
  });

  it('baton pause, reading a turn the user cut off, says the line it skipped', async () => {
    const interrupted = JSON.stringify({
      type: 'user',
      timestamp: new Date().toISOString(),
      sessionId: SESSION,
      message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
    });
    const { baton, damagedAt } = await grownWithDamage([interrupted]);
    const pause = await baton(['pause']);
    expect(pause.code, pause.stderr).toBe(0);
    expect(pause.stdout).toMatch(
      new RegExp(`new transcript entries of .+; ${skippedNote(damagedAt).source}`),
    );
  });
});
