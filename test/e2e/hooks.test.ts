import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

/** Real hook payloads from the corpus, pointed at a temporary repository. */
function payload(file: string, index: number, cwd: string, extra: Record<string, unknown> = {}) {
  const list = JSON.parse(readFileSync(corpusPath(`hooks/serverless-plugins/${file}`), 'utf8')) as Record<
    string,
    unknown
  >[];
  return JSON.stringify({ ...list[index], cwd, transcript_path: join(cwd, 'no-transcript.jsonl'), ...extra });
}

describe('baton hooks install / uninstall', () => {
  it('merges into .claude/settings.json, idempotent, keeping the user hooks', async () => {
    const project = tempDir('baton-proj-');
    mkdirSync(join(project, '.claude'));
    const user = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } };
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(user));
    const env = { BATON_HOME: tempDir('baton-home-') };
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['hooks', 'install', '--project', project, '--command', 'baton'], {
        cwd: project,
        env,
      });
      expect(r.code, r.stderr).toBe(0);
    }
    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'));
    expect(settings.model).toBe('opus');
    expect(settings.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      { hooks: [{ type: 'command', command: 'baton hook Stop', timeout: 60 }] },
    ]);
    for (const e of ['PreCompact', 'SessionStart', 'SessionEnd']) expect(settings.hooks[e]).toHaveLength(1);

    expect((await runCli(['hooks', 'uninstall', '--project', project], { cwd: project, env })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'))).toEqual(user);
  });

  it('refuses to overwrite settings that are not JSON', async () => {
    const project = tempDir('baton-proj-');
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), '{ not json');
    const r = await runCli(['hooks', 'install', '--project', project], {
      cwd: project,
      env: { BATON_HOME: tempDir() },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{ not json');
  });
});

describe('baton hook <event>', () => {
  it('snapshots before compaction, injects the context at session start, checkpoints at stop', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-') };
    const baton = (args: string[], input?: string) =>
      runCli(args, { cwd: repo, env, ...(input ? { input } : {}) });
    await baton(['create', '--title', 'Hooked', '--task', 'A:Schema', '--task', 'B:API:A']);
    await baton(['task', 'start', 'A']);
    await baton([
      'record',
      'decision',
      '--type',
      'library',
      '--description',
      'Use zod',
      '--rationale',
      'one schema',
    ]);
    await baton(['pause', '--reason', 'night']);
    await baton(['task', 'done', 'A']);

    const start = await baton(['hook', 'SessionStart'], payload('session_start.json', 0, repo));
    expect(start.code).toBe(0);
    const out = JSON.parse(start.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('Continue from task "B: API"');
    expect(out.hookSpecificOutput.additionalContext).toContain('Use zod');
    let status = (await baton(['status', '--json'])).json<Record<string, any>>();
    expect(status.workflow).toMatchObject({ status: 'in_progress', session_count: 2 });
    expect(status.handoff).toMatchObject({ acknowledged_via: 'hook', loaded_latest: true });

    await baton(['task', 'start', 'B']);
    const pre = await baton(
      ['hook', 'PreCompact'],
      payload('session_start.json', 0, repo, {
        hook_event_name: 'PreCompact',
        trigger: 'auto',
        custom_instructions: null,
        source: undefined,
      }),
    );
    expect(pre.code).toBe(0);
    expect(pre.stderr).toMatch(/snapshot .* before compaction/);
    const snaps = (await baton(['snapshots', '--json'])).json<{ snapshots: { trigger: string }[] }>();
    expect(snaps.snapshots.map((s) => s.trigger)).toContain('exhaustion');

    const compact = await baton(
      ['hook', 'SessionStart'],
      payload('session_start.json', 0, repo, { source: 'compact' }),
    );
    expect(JSON.parse(compact.stdout).hookSpecificOutput.additionalContext).toContain(
      '## Session Resume Context',
    );

    const stop = await baton(
      ['hook', 'Stop'],
      payload('abc7156b-6420-4373-a150-9b2eecad6805/stop.json', 0, repo),
    );
    expect(stop.code).toBe(0);
    expect(stop.stderr).toMatch(/checkpoint cp-\d+-stop/);
    const again = await baton(
      ['hook', 'Stop'],
      payload('abc7156b-6420-4373-a150-9b2eecad6805/stop.json', 0, repo),
    );
    expect(again.stderr).toMatch(/nothing new/);
    const end = await baton(['hook', 'SessionEnd'], payload('session_end.json', 0, repo));
    expect(end.code).toBe(0);
    status = (await baton(['status', '--json'])).json<Record<string, any>>();
    expect(status.checkpoints.map((c: { name: string }) => c.name).at(-1)).toMatch(/-stop$/);
  });

  it('stays silent and exits 0 outside a Baton worktree and on bad input', async () => {
    const dir = tempDir('baton-none-');
    const env = { BATON_HOME: tempDir('baton-home-') };
    const none = await runCli(['hook', 'SessionStart'], {
      cwd: dir,
      env,
      input: payload('session_start.json', 0, dir),
    });
    expect(none).toMatchObject({ code: 0, stdout: '' });
    const bad = await runCli(['hook', 'SessionStart'], { cwd: dir, env, input: '{"cwd": 3' });
    expect(bad.code).toBe(0);
    expect(bad.stderr).toMatch(/not JSON/);
    const unknown = await runCli(['hook', 'Notification'], { cwd: dir, env, input: '{}' });
    expect(unknown.code).toBe(0);
  });
});
