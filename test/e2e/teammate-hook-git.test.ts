import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { team } from '../helpers/teammates.js';

// An agent's hooks follow a workflow of another folder when their session id is one of its sessions' (a conversation
// that moved its folder, or an id reused on another person's machine). A pause taking effect at its turn end reads the
// git state of the workflow's worktree as every command does: at a path here holding another person's clone (Ben's
// at devcontainers' one path), none is recorded as the workflow's.

type Json = Record<string, unknown>;

describe("a hook following a teammate's workflow by its session id", () => {
  it("records no git state of the other person's clone at the workflow's path", async () => {
    const { ana, benEnv, hook, baton, asBen, follows, cloneAt } = await team('sqlite');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    const paused = await baton(ana, 'pause', '-w', anas, '--json');
    expect(paused.code, paused.stderr).toBe(0);
    // Ana's clone is gone from this machine; Ben's is at her path, with a file of his; his agent runs elsewhere
    renameSync(ana, `${ana}-ana`);
    const his = cloneAt(ana);
    writeFileSync(join(his, 'notes.txt'), 'his\n');
    const elsewhere = cloneAt(join(tempDir('baton-ben2-'), 'cli'));
    const stop = await runCli(['hook', 'Stop'], {
      cwd: elsewhere,
      env: benEnv,
      input: JSON.stringify({ cwd: elsewhere, hook_event_name: 'Stop', session_id: 'ana-1' }),
    });
    expect(stop.code, stop.stderr).toBe(0);
    const status = (await asBen(elsewhere, 'status', '-w', anas, '--json')).json<{ workflow: Json }>();
    expect(status.workflow).toMatchObject({ status: 'paused' });
    const snap = /paused at the end of the agent's turn \(snapshot (snap-[^\s)]+)\)/.exec(stop.stderr)?.[1];
    expect(snap, stop.stderr).toBeDefined();
    const shown = (await asBen(elsewhere, 'snapshot', snap!, '--json')).json<Json>();
    expect(shown).toMatchObject({ git_state: null });
    expect(shown.git_note).toContain(`${ana} is ana@team.example's worktree`);
  });
});
