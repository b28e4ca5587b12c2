import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalClient } from '../../src/client/local-client.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { fixedAtOnce } from '../../src/core/fixed-at-once.js';
import { runCli } from '../helpers/cli.js';
import { corpusFiles, corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';
import { claudeTool } from '../helpers/transcript-lines.js';

const claude = corpusFiles().filter((f) => f.startsWith('claude-code/') && f.endsWith('.jsonl'));
const codex = corpusFiles().filter((f) => f.startsWith('codex/') && f.endsWith('.jsonl'));
const LONG = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';

function workspace() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-') };
  const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
  return { repo, baton };
}

describe('baton import: every real transcript of the corpus', () => {
  it('reads all of them without error, and a second import adds nothing', async () => {
    expect(claude.length).toBeGreaterThanOrEqual(8);
    expect(codex.length).toBeGreaterThanOrEqual(3);
    // every file through the importer the CLI runs, in this process (one CLI process a file took minutes on a loaded
    // 2-core machine); the CLI itself below, on one file of each agent
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    await client.create({ title: 'imports', tasks: [{ id: 'T1', title: 'Work', deps: [] }], cwd: repo });
    for (const [source, files] of [
      ['claude-code', claude],
      ['codex', codex],
    ] as const) {
      for (const f of files) {
        const r = await importTranscriptFile(client, { cwd: repo }, corpusPath(f), source);
        expect(r.new_entries, f).toBe(r.entries);
      }
    }
    await service.store.close();
    const { baton } = workspace();
    await baton('create', '--title', 'imports', '--task', 'T1:Work');
    for (const [format, file] of [
      ['claude-code', LONG],
      ['codex', codex[0]!],
    ] as const) {
      const r = await baton('import', format, corpusPath(file), '--json');
      expect(r.code, `${file}: ${r.stderr}`).toBe(0);
      const out = r.json<{ entries: number; new_entries: number }>();
      expect(out.new_entries, file).toBe(out.entries);
    }
    const again = (await baton('import', 'codex', corpusPath(codex[0]!), '--json')).json<{
      new_entries: number;
    }>();
    expect(again.new_entries).toBe(0);
  }, 300_000);

  it('skips a malformed line and reports it with its line number', async () => {
    const { baton } = workspace();
    await baton('create', '--title', 'bad lines', '--task', 'T1:Work');
    const lines = readFileSync(corpusPath('claude-code/spotter/short.jsonl'), 'utf8').split('\n');
    const broken = join(tempDir(), 'broken.jsonl');
    writeFileSync(
      broken,
      [...lines.slice(0, 2), '{"type": "assistant", "message": {', ...lines.slice(2)].join('\n'),
    );
    const r = await baton('import', 'claude-code', broken, '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/broken\.jsonl:3: skipped/);
    expect(r.json<{ skipped: { line: number }[] }>().skipped.map((s) => s.line)).toContain(3);
  });
});

describe("the agent's task list read from a transcript", () => {
  it('says which link it refused because the tasks would wait for each other', async () => {
    const { baton } = workspace();
    const created = (id: string, subject: string) =>
      claudeTool(`c${id}`, 'TaskCreate', { subject }, `Task #${id} created successfully: ${subject}`);
    const file = join(tempDir(), 'cycle.jsonl');
    const lines = [
      JSON.stringify({
        type: 'user',
        sessionId: 'S1',
        message: { role: 'user', content: 'build and deploy the API' },
      }),
      ...created('1', 'Build the API'),
      ...created('2', 'Deploy the API'),
      ...claudeTool('u1', 'TaskUpdate', { taskId: '2', addBlockedBy: ['1'] }, 'Updated task #2'),
      ...claudeTool('u2', 'TaskUpdate', { taskId: '1', addBlockedBy: ['2'] }, 'Updated task #1'),
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const r = await baton('import', 'claude-code', file, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "T1 not linked to T2: the agent's list makes them wait for each other (a cycle)",
    );
    const tasks = (await baton('status', '--json')).json<{ tasks: { id: string; deps: string[] }[] }>().tasks;
    expect(tasks.map((t) => [t.id, t.deps])).toEqual([
      ['T1', []],
      ['T2', ['T1']],
    ]);
  });
});

describe('the compiled context of a long transcript', () => {
  it('is at least 50x smaller than the transcript and keeps the errors with their fate and the next task', async () => {
    const { baton } = workspace();
    await baton(
      'create',
      '--title',
      'long session',
      '--task',
      'T1:Build the feature',
      '--task',
      'T2:Ship it:T1',
    );
    await baton('task', 'start', 'T1');
    const imported = (await baton('import', 'claude-code', corpusPath(LONG), '--json')).json<
      Record<string, any>
    >();
    expect(imported.records.history).toBeGreaterThan(50);
    expect(imported.compactions.length).toBeGreaterThanOrEqual(1);
    expect(imported.usage.context_window).toBeGreaterThan(0);
    await baton('pause', '--force', '--reason', 'context nearly full');
    const status = (await baton('status', '--json')).json<{
      open_errors: { error_type: string; error_message: string }[];
      recent_resolved_errors: {
        error_type: string;
        error_message: string;
        resolution: string;
        resolution_notes: string | null;
      }[];
    }>();
    const context = (await baton('context', '--json')).json<{ markdown: string; tokens: number }>();
    const ratio = statSync(corpusPath(LONG)).size / Buffer.byteLength(context.markdown);
    expect(ratio).toBeGreaterThanOrEqual(50);
    // the session's failures were all fixed or worked around before it ended: none is left unresolved
    expect(status.open_errors).toEqual([]);
    expect(status.recent_resolved_errors.length).toBeGreaterThan(0); // the loop below checks something
    // each kept with its fate, but a slip fixed at once (the failed call corrected right after it): noise to the next
    // session, left out
    expect(status.recent_resolved_errors.some(fixedAtOnce)).toBe(true); // the `git push` set upstream next
    for (const e of status.recent_resolved_errors) {
      const said = `${e.error_type}: ${e.error_message.slice(0, 60)}`;
      if (fixedAtOnce(e)) expect(context.markdown).not.toContain(said);
      else expect(context.markdown).toContain(said);
    }
    expect(context.markdown).not.toContain('UNRESOLVED');
    expect(context.markdown).toContain('Continue from task "T1: Build the feature"');
    expect(context.markdown).toContain('context nearly full');
  });
});
