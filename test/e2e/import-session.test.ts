import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalClient } from '../../src/client/local-client.js';
import { LlmExtractor } from '../../src/extraction/index.js';
import { OPEN_ERRORS_LIMIT } from '../../src/core/index.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { claudeTool } from '../helpers/transcript-lines.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

const LONG = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';
const CODEX = 'codex/codemie-code-2/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl';

function workspace() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-') };
  const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
  return { repo, baton };
}

async function inProcess() {
  const service = makeService();
  const client = new LocalClient(service);
  const repo = makeRepo();
  await client.create({ title: 'import', tasks: [], cwd: repo });
  const ref = { cwd: repo };
  const id = ((await client.status(ref)) as { workflow: { id: string } }).workflow.id;
  const history = async () =>
    (await service.store.listRecords(id, 'history')).map((r) => ({
      at: (r.data as { timestamp: string }).timestamp,
      text: (r.data as { text: string }).text,
    }));
  return { service, client, ref, id, repo, history };
}

describe('baton import where no workflow is open', () => {
  it('says a transcript with no request of the user names the workflow it creates after the file', async () => {
    const { baton } = workspace();
    const r = await baton('import', corpusPath('stream-json/claudeless/v2.1.12/stream-json/output.jsonl'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /created wf-\S+ for this transcript \(it holds no request of the user: named after the file\)/,
    );
  });

  it('creates one for the transcript (its first request the issue); a file of the wrong kind creates nothing', async () => {
    const { baton } = workspace();
    const text = join(tempDir(), 'notes.txt');
    writeFileSync(text, 'just some notes\n');
    expect((await baton('import', 'codex', text)).code).toBe(2);
    const folder = await baton('import', 'claude-code', tempDir());
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/is not a file: give the transcript's \.jsonl file/);
    const empty = join(tempDir(), 'empty.jsonl');
    writeFileSync(empty, '');
    const none = await baton('import', 'claude-code', empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('is empty: there is nothing to import yet');
    expect((await baton('list', '--json')).json<{ workflows: unknown[] }>().workflows).toEqual([]);

    const first = await baton('import', 'codex', corpusPath(CODEX));
    expect(first.code, first.stderr).toBe(0);
    const id = /created (wf-\S+) for this transcript \(its first request is the issue\)/.exec(
      first.stderr,
    )?.[1];
    expect(id, first.stderr).toBeDefined();
    expect(first.stdout).toContain(`into ${id}:`);
    const status = (await baton('status', '--json')).json<{
      workflow: { id: string; title: string; issue: { title: string } | null };
    }>();
    // named after what the user first asked, not the file's name
    expect(status.workflow.id).toBe(id);
    expect(status.workflow.title).not.toMatch(/rollout-/);
    expect(status.workflow.title).toBe(status.workflow.issue?.title);
    const context = await baton('context', '--budget', '800');
    expect(context.stdout).toContain('### Goal');
    // the briefing's hints name a category alone: the workflow as it stands
    const live = /baton details (live-\d+) <category>/.exec(context.stdout)?.[1] ?? '';
    const alone = await baton('details', 'requests', '--json');
    expect(alone.code, alone.stderr).toBe(0);
    expect(JSON.parse(alone.stdout)).toEqual(
      JSON.parse((await baton('details', live, 'requests', '--json')).stdout),
    );
    expect((JSON.parse(alone.stdout) as unknown[]).length).toBeGreaterThan(0);

    // the same file again: nothing new, nothing created, no warning
    const again = await baton('import', 'codex', corpusPath(CODEX));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(
      /^already imported: .* holds nothing new since its last import into wf-\S+ \(0 new entries/,
    );
    // lines appended that are not transcript lines are said so
    const copy = join(tempDir(), 'rollout.jsonl');
    writeFileSync(copy, readFileSync(corpusPath(CODEX)));
    expect((await baton('import', 'codex', copy)).code).toBe(0);
    appendFileSync(copy, 'not json\n');
    const garbage = await baton('import', 'codex', copy);
    expect(garbage.stderr).toContain('no line of the new part is a transcript line: nothing imported');
    expect((await baton('list', '--json')).json<{ workflows: unknown[] }>().workflows).toHaveLength(1);
  });

  it('with -w naming no workflow, refuses rather than creating one', async () => {
    const { baton } = workspace();
    const r = await baton('import', 'codex', corpusPath(CODEX), '-w', 'wf-missing');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('no workflow wf-missing');
    expect((await baton('list', '--json')).json<{ workflows: unknown[] }>().workflows).toEqual([]);
  });
});

describe('baton import <file>: which agent wrote it is read from the file', () => {
  it('imports a Codex rollout and a Claude Code transcript alike, and refuses a file neither wrote (exit 2)', async () => {
    const { baton } = workspace();
    const codex = await baton('--json', 'import', corpusPath(CODEX));
    expect(codex.code, codex.stderr).toBe(0);
    expect(codex.json<{ format: string; new_entries: number }>()).toMatchObject({ format: 'codex-rollout' });
    const claude = await baton('--json', 'import', corpusPath('claude-code/spotter/short.jsonl'));
    expect(claude.code, claude.stderr).toBe(0);
    expect(claude.json<{ format: string }>().format).toBe('claude-code-transcript');
    // a first line longer than the first read (a pasted image) is read to its end
    const [first = '', ...rest] = readFileSync(corpusPath('claude-code/spotter/short.jsonl'), 'utf8').split(
      '\n',
    );
    const long = join(tempDir(), 'long-first-line.jsonl');
    const line = JSON.parse(first) as Record<string, unknown>;
    writeFileSync(long, [JSON.stringify({ ...line, pasted: 'x'.repeat(300_000) }), ...rest].join('\n'));
    const wide = await baton(
      '--json',
      'import',
      long,
      '-w',
      claude.json<{ workflow_id: string }>().workflow_id,
    );
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.json<{ format: string }>().format).toBe('claude-code-transcript');
    const text = join(tempDir(), 'notes.txt');
    writeFileSync(text, 'just some notes\nnot a transcript\n');
    const plain = await baton('import', text);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain(`cannot tell which agent wrote ${text}`);
    expect(plain.stderr).toContain(
      'give a transcript file the agent wrote (Claude Code: ~/.claude/projects/',
    );
    // naming the agent does not make it one: the same file given as Claude Code's is refused as well
    expect((await baton('import', 'claude-code', text)).code).toBe(2);
    // no file: said with the forms of `baton import`, not the usage of the `auto` it would default to
    const bare = await baton('import', '-w', 'wf-1');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(
      'error: missing transcript file: `baton import <file>` reads which agent wrote it; `baton import claude-code <file>` or `baton import codex <file>` names the agent',
    );
    expect(bare.stderr).toContain('Usage: baton import [auto | claude-code | codex] [options] <file>');
    expect(bare.stderr).toMatch(
      /^ {2}auto \[options\] <file> +import either agent's transcript \(the default\)$/m,
    );
    expect(bare.stderr).toMatch(/^ {2}codex \[options\] <file> +import a Codex CLI rollout$/m);
    expect(bare.stderr).not.toContain('baton import auto');
    // the options of the forms, named in `baton import --help` too
    expect((await baton('import', '--help')).stdout).toContain(
      'Options of each: -w/--workflow <id>, --task <id>',
    );
    // an agent Baton does not know is said so, not taken for a second file
    const unknown = await baton('import', 'claude', text);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown agent 'claude': `baton import claude-code <file>`");
    // two files (a glob) are no agent
    expect((await baton('import', text, text)).stderr).not.toContain('unknown agent');
    // an option's value is no agent
    expect((await baton('import', '-w', 'wf-1', text)).stderr).not.toContain('unknown agent');
  });
});

describe('baton import refuses a file of the wrong kind', () => {
  it('a Codex rollout given as Claude Code, and plain text, exit 2 with what to run instead', async () => {
    const { baton } = workspace();
    await baton('create', '--title', 'wrong kind');
    const codexAsClaude = await baton('import', 'claude-code', corpusPath(CODEX));
    expect(codexAsClaude.code).toBe(2);
    expect(codexAsClaude.stderr).toMatch(/is a Codex rollout, not a Claude Code transcript/);
    expect(codexAsClaude.stderr).toContain('baton import codex');
    const text = join(tempDir(), 'notes.txt');
    writeFileSync(text, 'just some notes\nnot a transcript\n');
    const plain = await baton('import', 'codex', text);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(
      /is not a Codex transcript: none of its first lines belongs to a Codex rollout or `codex exec --json` output/,
    );
    // notes that quote a few transcript lines among their prose
    const notes = join(tempDir(), 'FORMATS.md');
    const quoted = readFileSync(corpusPath('claude-code/spotter/short.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 3);
    writeFileSync(
      notes,
      ['# Formats', '', 'A line:', '', ...quoted, '', 'and more prose.', '- a list', '- of', '- points'].join(
        '\n',
      ) + '\n',
    );
    const examples = await baton('import', notes);
    expect(examples.code).toBe(2);
    expect(examples.stderr).toContain(
      `${notes} is not a transcript: 6 of its first 9 non-blank lines are not JSON objects (a Claude Code transcript holds one on each line)`,
    );
    const status = (await baton('status', '--json')).json<{ imports: Record<string, unknown> }>();
    expect(Object.keys(status.imports ?? {})).toHaveLength(0);
    // a file imported before is refused the same way, though nothing of it is new
    expect((await baton('import', 'codex', corpusPath(CODEX))).code).toBe(0);
    const again = await baton('import', 'claude-code', corpusPath(CODEX));
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is a Codex rollout, not a Claude Code transcript/);
  });

  it('--extractor llm with a URL that does not name its protocol and no --llm-kind exits 2', async () => {
    const { baton } = workspace();
    await baton('create', '--title', 'llm kind');
    const r = await baton(
      'import',
      'claude-code',
      corpusPath('claude-code/spotter/short.jsonl'),
      '--extractor',
      'llm',
      '--llm-url',
      'http://127.0.0.1:9/llm',
      '--llm-model',
      'm',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot tell which protocol .* pass --llm-kind anthropic\|openai/);
  });
});

describe('a long transcript read whole, in its own time and order', () => {
  it('records carry the transcript timestamps and the compaction marker sits where it happened', async () => {
    const { service, client, ref, history } = await inProcess();
    const imported = await importTranscriptFile(client, ref, corpusPath(LONG), 'claude-code');
    expect(imported.compactions.length).toBe(1);
    expect(imported.compactions[0]?.line).toBe(1256);
    const stamps = readFileSync(corpusPath(LONG), 'utf8')
      .split('\n')
      .flatMap((l) => /"timestamp":"([^"]+)"/.exec(l)?.[1] ?? []);
    const first = stamps.reduce((a, b) => (a < b ? a : b));
    const last = stamps.reduce((a, b) => (a > b ? a : b));
    const rows = await history();
    // no window: the session's first actions are there as well as its last
    expect(rows.length).toBeGreaterThan(250);
    expect(rows[0]?.at.slice(0, 13)).toBe(first.slice(0, 13));
    for (const r of rows) {
      expect(r.at >= first && r.at <= last, `${r.at}: ${r.text}`).toBe(true);
    }
    const marker = rows.findIndex((r) => r.text.startsWith('context compacted'));
    expect(marker).toBeGreaterThan(0);
    expect(marker).toBeLessThan(rows.length - 50); // not pushed to the end
    expect(rows[marker]?.at).toBe(imported.compactions[0]?.at);
    // usage: output tokens and the peak context, beside the last context
    expect(imported.usage?.output_tokens).toBeGreaterThan(0);
    expect(imported.usage?.peak_context_tokens).toBeGreaterThan(imported.usage?.context_tokens ?? 0);
    // the utilisation the fold derives from the context size and the window (one place computes it)
    const u = ((await client.status(ref)) as { usage: { context_utilization: number | null } }).usage;
    expect(u.context_utilization).toBeCloseTo(
      (imported.usage?.context_tokens ?? 0) / (imported.usage?.context_window ?? 1),
      5,
    );
    await service.store.close();
  });

  it('an import in two pieces (the file grown in between) records what one import of the whole file does', async () => {
    const lines = readFileSync(corpusPath(LONG), 'utf8').split('\n');
    const path = join(tempDir(), 'growing.jsonl');
    writeFileSync(path, lines.slice(0, 900).join('\n') + '\n');
    const twice = await inProcess();
    const one = await importTranscriptFile(twice.client, twice.ref, path, 'claude-code');
    appendFileSync(path, lines.slice(900).join('\n'));
    const two = await importTranscriptFile(twice.client, twice.ref, path, 'claude-code');
    expect(two.read.from_byte).toBe(one.read.to_byte);
    expect(two.read.bytes).toBeLessThan(readFileSync(path).length);
    expect(one.new_entries + two.new_entries).toBeGreaterThan(0);

    const whole = await inProcess();
    const single = await importTranscriptFile(whole.client, whole.ref, path, 'claude-code');
    expect(one.new_entries + two.new_entries).toBe(single.new_entries);
    expect(await twice.history()).toEqual(await whole.history());
    await twice.service.store.close();
    await whole.service.store.close();
  });
});

describe("the agent's last state across pieces", () => {
  it('a piece holding only the result of a call the last one left open takes back "never returned"', async () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;
    const line = (type: 'user' | 'assistant', s: number, content: unknown[]) =>
      JSON.stringify({
        type,
        sessionId: 's1',
        timestamp: at(s),
        message: { id: `m${s}`, role: type, content },
      });
    const commit = 'git commit -m "Add the changelog"';
    const first = [
      line('user', 1, [{ type: 'text', text: 'add a changelog and commit it' }]),
      line('assistant', 2, [{ type: 'text', text: 'Committing now.' }]),
      line('assistant', 3, [{ type: 'tool_use', id: 'c1', name: 'Bash', input: { command: commit } }]),
    ];
    const result = line('user', 4, [
      {
        type: 'tool_result',
        tool_use_id: 'c1',
        content: '[main 1a2b3c4] Add the changelog',
        is_error: false,
      },
    ]);
    const path = join(tempDir(), 'session.jsonl');
    writeFileSync(path, first.join('\n') + '\n');
    const w = await inProcess();
    const lastState = async () => (await w.client.context(w.ref)).json.last_state?.text;
    await importTranscriptFile(w.client, w.ref, path, 'claude-code');
    expect(await lastState()).toContain('The transcript ends before this call returned');
    appendFileSync(path, result + '\n');
    await importTranscriptFile(w.client, w.ref, path, 'claude-code');
    expect(await lastState()).toBe(
      `Committing now.\n\nAfter it: \`Bash: ${commit}\` worked, its output ending: [main 1a2b3c4] Add the changelog`,
    );
    await w.service.store.close();
  });

  it("a piece holding only a background sub-agent's answer adds it under the last message, and the turn goes on", async () => {
    const line = (type: 'user' | 'assistant', s: number, content: unknown) =>
      JSON.stringify({
        type,
        sessionId: 's1',
        timestamp: `2026-01-01T00:00:0${s}.000Z`,
        message: { id: `m${s}`, role: type, content },
      });
    const first = [
      line('user', 1, [{ type: 'text', text: 'why is the nightly build slow?' }]),
      line('assistant', 2, [
        {
          type: 'tool_use',
          id: 'a1',
          name: 'Agent',
          input: { description: 'Profile the build', prompt: 'p' },
        },
      ]),
      line('user', 3, [
        { type: 'tool_result', tool_use_id: 'a1', content: 'Async agent launched successfully.' },
      ]),
      line('assistant', 4, [
        { type: 'text', text: 'The profiler runs in the background; I will wait for it.' },
      ]),
    ];
    const notification = line(
      'user',
      5,
      '<task-notification>\n<task-id>a1b2</task-id>\n<tool-use-id>a1</tool-use-id>\n<status>completed</status>\n' +
        '<summary>Agent "Profile the build" finished</summary>\n' +
        '<result>Perfect! I have all I need.\n\nThe build spends 80% of its time in `tsc --build` without incremental mode.</result>\n' +
        '</task-notification>',
    );
    const path = join(tempDir(), 'session.jsonl');
    writeFileSync(path, first.join('\n') + '\n');
    const w = await inProcess();
    const context = async () => (await w.client.context(w.ref)).json;
    await importTranscriptFile(w.client, w.ref, path, 'claude-code');
    expect((await context()).last_state).toMatchObject({
      left: 'waiting',
      waiting_on: ['sub_agents'],
      text: 'The profiler runs in the background; I will wait for it.\n\nSub-agents it started had not answered when the transcript ends: Profile the build',
    });
    appendFileSync(path, notification + '\n');
    await importTranscriptFile(w.client, w.ref, path, 'claude-code');
    expect((await context()).last_state).toMatchObject({
      left: 'mid_turn',
      text:
        'The profiler runs in the background; I will wait for it.\n\nSub-agents answered after it (whole answers: `baton details summaries`):\n' +
        '- Profile the build: The build spends 80% of its time in `tsc --build` without incremental mode.',
    });
    // the whole answer is a record of its own, which the state's summaries leave alone
    const summaries = (await w.client.details(w.ref, null, 'summaries')) as { kind: string; text: string }[];
    expect(summaries.filter((x) => x.kind === 'sub_agent').map((x) => x.text)).toEqual([
      'Profile the build: Perfect! I have all I need.\n\nThe build spends 80% of its time in `tsc --build` without incremental mode.',
    ]);
    expect(Object.keys((await w.client.status(w.ref)).summaries ?? {})).not.toContain('sub_agent');
    await w.service.store.close();
  });
});

describe('what the files changed after a test run or an error leave unchecked', () => {
  const line = (type: 'user' | 'assistant', s: number, content: unknown) =>
    JSON.stringify({
      type,
      sessionId: 's1',
      timestamp: `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`,
      message: { id: `m${s}`, role: type, content },
    });
  const call = (s: number, id: string, name: string, input: object, out: string, is_error = false) => [
    line('assistant', s, [{ type: 'tool_use', id, name, input }]),
    line('user', s + 1, [{ type: 'tool_result', tool_use_id: id, content: out, is_error }]),
  ];
  /** The markdown context after each piece of a transcript is imported, the pieces appended one after another. */
  async function contexts(...pieces: string[][]): Promise<string[]> {
    const path = join(tempDir(), 'session.jsonl');
    const w = await inProcess();
    const out: string[] = [];
    for (const piece of pieces) {
      appendFileSync(path, piece.join('\n') + '\n');
      await importTranscriptFile(w.client, w.ref, path, 'claude-code');
      out.push((await w.client.context(w.ref)).markdown);
    }
    await w.service.store.close();
    return out;
  }
  const passed = ' Test Files  1 passed (1)\n      Tests  3 passed (3)';

  it('a passing run is said older than them in Already Done and the TDD state, until a later run passes', async () => {
    const [before, after, again] = await contexts(
      [
        line('user', 1, [{ type: 'text', text: 'add the review token store' }]),
        ...call(2, 't1', 'Bash', { command: 'npx vitest run' }, passed),
        ...call(
          4,
          'w1',
          'Write',
          { file_path: 'src/token-store.ts', content: 'x' },
          'File created successfully',
        ),
        ...call(6, 'w2', 'Edit', { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' }, 'updated'),
        // prose the tests do not read: no reason to run them again
        ...call(
          8,
          'w4',
          'Write',
          { file_path: 'docs/adr/0015-lineage.md', content: '# ADR' },
          'File created',
        ),
      ],
      call(10, 't2', 'Bash', { command: 'npx vitest run' }, passed),
      // a file the ledger already holds, changed again after that run: the run is older than it
      call(12, 'w3', 'Edit', { file_path: 'src/app.ts', old_string: 'b', new_string: 'c' }, 'updated'),
    );
    expect(before).toContain('  - tests passed before 2 later file changes\n');
    expect(before).toContain(
      '- Last run: npx vitest run -> 3 passed, 0 failed\n- 2 files changed after this run: run it again before trusting it\n',
    );
    expect(after).toContain('  - tests pass\n');
    expect(after).not.toContain('changed after this run');
    expect(again).toContain('  - tests passed before 1 later file change\n');
  });

  it('a run of one test file leaves what the full run failed in others not known to pass, until a run has them', async () => {
    const failed =
      ' FAIL  src/a.test.ts > parser > reads a BOM\n FAIL  src/b.test.ts > writer > writes a BOM\n' +
      ' Test Files  2 failed | 1 passed (3)\n      Tests  2 failed | 7 passed (9)';
    const [full, one, both] = await contexts(
      [
        line('user', 1, [{ type: 'text', text: 'fix the BOM handling' }]),
        ...call(2, 't1', 'Bash', { command: 'npx vitest run' }, failed, true),
      ],
      call(4, 't2', 'Bash', { command: 'npx vitest run src/a.test.ts' }, passed),
      call(6, 't3', 'Bash', { command: 'npx vitest run src/b.test.ts' }, passed),
    );
    expect(full).toContain('- Failing tests: 2\n');
    // the last run passed, yet the writer's test has not run since it failed: said, and not "tests pass"
    expect(one).toContain(
      '- Last run: npx vitest run src/a.test.ts -> 3 passed, 0 failed\n' +
        '- Not run since an earlier run (npx vitest run) failed them: src/b.test.ts > writer > writes a BOM\n',
    );
    expect(one).not.toContain('tests pass');
    expect(both).not.toContain('Not run since');
    expect(both).toContain('  - tests pass\n');
  });

  it('an open error names the file it names that was changed after it, edited before it too', async () => {
    const edit = (s: number, id: string) =>
      call(s, id, 'Edit', { file_path: '/w/cli/hooks.go', old_string: 'a', new_string: 'b' }, 'updated');
    const failed =
      'Exit code 1\n# entire.io/cli\ncli/hooks.go:312:24: undefined: strings\nFAIL\tentire.io/cli [build failed]';
    const [before, after] = await contexts(
      [
        line('user', 1, [{ type: 'text', text: 'fix the hooks test' }]),
        ...edit(2, 'e1'),
        ...call(4, 'g1', 'Bash', { command: 'go test ./...' }, failed, true),
      ],
      edit(6, 'e2'),
    );
    expect(before).toMatch(/! UNRESOLVED: [^\n]*hooks\.go:312:24: undefined: strings[^\n]*\n/);
    expect(before).not.toContain('changed after it');
    expect(after).toMatch(
      /! UNRESOLVED: [^\n]*undefined: strings[^\n]*; cli\/hooks\.go was changed after it: run it again to check the fix\n/,
    );
  });
});

describe('a conversation forked with claude --resume <id> --fork-session', () => {
  /** The parent as it stood at the fork (its first `at` lines), and the fork: copies of them, then its own lines. */
  function forked(at: number) {
    const lines = readFileSync(corpusPath(LONG), 'utf8').split('\n');
    const dir = tempDir();
    const parent = join(dir, '258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    const fork = join(dir, 'f0f0f0f0-0000-4000-8000-000000000001.jsonl');
    // the fork is a session of its own: Claude Code writes its id on every line, copies included
    const renamed = lines.map((l) =>
      l.trim()
        ? JSON.stringify({ ...(JSON.parse(l) as object), sessionId: 'f0f0f0f0-0000-4000-8000-000000000001' })
        : l,
    );
    writeFileSync(parent, lines.slice(0, at).join('\n') + '\n');
    writeFileSync(fork, renamed.join('\n'));
    return { parent, fork, whole: corpusPath(LONG) };
  }
  const totals = async (w: Awaited<ReturnType<typeof inProcess>>) => {
    type Usage = { tokens_used: number; llm_calls: number; tool_calls: number };
    const u = ((await w.client.status(w.ref)) as { usage: Usage }).usage;
    return { tokens_used: u.tokens_used, llm_calls: u.llm_calls, tool_calls: u.tool_calls };
  };

  it('counts the usage of the lines it copied once: parent and fork add up to the one conversation', async () => {
    const { parent, fork, whole } = forked(495);
    const one = await inProcess();
    await importTranscriptFile(one.client, one.ref, whole, 'claude-code');
    const both = await inProcess();
    const p = await importTranscriptFile(both.client, both.ref, parent, 'claude-code');
    const f = await importTranscriptFile(both.client, both.ref, fork, 'claude-code');
    expect(p.usage?.tokens_used).toBeGreaterThan(0);
    // the fork's own reading is its own calls: what the conversation made after the fork
    expect(f.usage?.tokens_used).toBe((await totals(one)).tokens_used - (p.usage?.tokens_used ?? 0));
    expect(await totals(both)).toEqual(await totals(one));
    await one.service.store.close();
    await both.service.store.close();
  });

  it('also when the fork is imported turn by turn, its copies in the first piece', async () => {
    const { parent, fork, whole } = forked(495);
    const one = await inProcess();
    await importTranscriptFile(one.client, one.ref, whole, 'claude-code');
    const both = await inProcess();
    await importTranscriptFile(both.client, both.ref, parent, 'claude-code');
    const lines = readFileSync(fork, 'utf8').split('\n');
    writeFileSync(fork, lines.slice(0, 700).join('\n') + '\n');
    await importTranscriptFile(both.client, both.ref, fork, 'claude-code');
    appendFileSync(fork, lines.slice(700).join('\n'));
    await importTranscriptFile(both.client, both.ref, fork, 'claude-code');
    expect(await totals(both)).toEqual(await totals(one));
    await one.service.store.close();
    await both.service.store.close();
  });
});

/** What an import recorded, as words (ids and record times differ between two imports of the same lines). */
async function recorded(w: Awaited<ReturnType<typeof inProcess>>) {
  const out: Record<string, string[]> = {};
  for (const kind of ['decision', 'error', 'request', 'side_effect', 'test_run'] as const) {
    const rows = await w.service.store.listRecords(w.id, kind);
    // an error resolved by a later import is written again, dated by its own timestamp: listed in transcript order
    const at = (r: { data: unknown }) => String((r.data as { timestamp?: string }).timestamp);
    if (kind === 'error') rows.sort((a, b) => at(a).localeCompare(at(b)));
    out[kind] = rows.map((r) => {
      const d = r.data as Record<string, unknown>;
      const words = d.description ?? d.error_message ?? d.text ?? d.summary ?? d.last_test_command ?? d;
      // an error with its fate: imported turn by turn, its fix may come in a later import
      return JSON.stringify(kind === 'error' ? `${String(words)} [${String(d.resolution)}]` : words);
    });
  }
  return out;
}

describe('a transcript recorded in another folder of this machine', () => {
  it('in another repository: refused without -w (nothing created or recorded), imported with a warning into the workflow named', async () => {
    const { repo, baton } = workspace();
    const other = makeRepo('other-project-');
    const line = (cwd: string) =>
      JSON.stringify({
        type: 'user',
        sessionId: 's1',
        cwd,
        timestamp: '2026-03-01T10:00:00.000Z',
        message: { role: 'user', content: 'Fix the flaky upload test' },
      });
    const theirs = join(tempDir(), 'theirs.jsonl');
    writeFileSync(theirs, `${line(other)}\n`);
    // no workflow here yet: none is created for another project's transcript
    const refused = await baton('import', 'claude-code', theirs);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      `was recorded in ${other}, another repository than this worktree ${repo}: import it from there`,
    );
    // from a folder inside it, the repository is named too
    const sub = join(other, 'src');
    mkdirSync(sub);
    const inside = join(tempDir(), 'inside.jsonl');
    writeFileSync(inside, `${line(sub)}\n`);
    expect((await baton('import', 'claude-code', inside)).stderr).toContain(
      `was recorded in ${sub}, in another repository (${other}) than this worktree ${repo}`,
    );
    expect((await baton('list', '--json')).json<{ workflows: unknown[] }>().workflows).toEqual([]);
    const id = (await baton('create', '--title', 'here', '--json')).json<{ id: string }>().id;
    expect((await baton('import', 'claude-code', theirs)).code).toBe(2);
    const status = await baton('status', '--json');
    expect(status.json<{ recent_requests?: unknown[] }>().recent_requests ?? []).toEqual([]);
    const r = await baton('import', 'claude-code', theirs, '-w', id);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `the transcript was recorded in ${other}, outside this workflow's worktree ${repo}`,
    );
    const ours = join(tempDir(), 'ours.jsonl');
    writeFileSync(ours, `${line(join(repo, '.')).replace('"s1"', '"s2"')}\n`);
    const here = await baton('import', 'claude-code', ours);
    expect(here.code, here.stderr).toBe(0);
    expect(here.stderr).not.toContain('outside this');
    // a folder outside any repository (the agent started above the project): imported, with the warning
    const above = tempDir('above-');
    const fromAbove = join(tempDir(), 'above.jsonl');
    writeFileSync(fromAbove, `${line(above).replace('"s1"', '"s3"')}\n`);
    const taken = await baton('import', 'claude-code', fromAbove);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toContain(
      `the transcript was recorded in ${above}, outside this workflow's worktree`,
    );
  });

  it('is refused without -w when another workflow of the worktree already recorded that session', async () => {
    const { repo, baton } = workspace();
    const old = join(tempDir(), 'old-1.jsonl');
    writeFileSync(
      old,
      `${JSON.stringify({ type: 'user', sessionId: 'old-1', cwd: repo, timestamp: '2026-03-01T10:00:00.000Z', message: { role: 'user', content: 'Rename foo to bar' } })}\n`,
    );
    const first = await baton('import', 'claude-code', old);
    expect(first.code, first.stderr).toBe(0);
    const a = /created (wf-\S+) for this transcript/.exec(first.stderr)?.[1] ?? '';
    expect((await baton('abandon', '-w', a)).code).toBe(0);
    const b = (await baton('create', '--title', 'new work', '--json')).json<{ id: string }>().id;
    const again = await baton('import', 'claude-code', old);
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toContain(
      `(session old-1) is already recorded in workflow ${a} (cancelled): what it recorded is there (baton context -w ${a})`,
    );
    const status = (await baton('status', '--json')).json<{ workflow: { id: string; title: string } }>();
    expect(status.workflow).toMatchObject({ id: b, title: 'new work' });
    // named, it is imported there
    expect((await baton('import', 'claude-code', old, '-w', b)).code).toBe(0);
  });

  it("is imported without a word when the workflow's worktree is gone from this machine", async () => {
    const { service, client, repo } = await inProcess();
    const id = ((await client.status({ cwd: repo })) as { workflow: { id: string } }).workflow.id;
    const file = join(tempDir(), 'session.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ type: 'user', sessionId: 's', cwd: tempDir(), message: { role: 'user', content: 'Fix it' } })}\n`,
    );
    rmSync(repo, { recursive: true, force: true });
    const r = await importTranscriptFile(client, { workflowId: id, cwd: tempDir() }, file, 'claude-code');
    expect(r.new_entries).toBe(1);
    expect(r.warnings.filter((w) => /outside this workflow/.test(w))).toEqual([]);
    await service.store.close();
  });

  it("from another machine: said when none of the workflow's other transcripts was recorded in its folder", async () => {
    const { service, client, ref } = await inProcess();
    const session = (name: string, cwd: string) => {
      const file = join(tempDir(), `${name}.jsonl`);
      const line = { type: 'user', sessionId: name, cwd, message: { role: 'user', content: 'Fix it' } };
      writeFileSync(file, `${JSON.stringify(line)}\n`);
      return file;
    };
    const warned = async (file: string) =>
      (await importTranscriptFile(client, ref, file, 'claude-code')).warnings.filter((w) =>
        /recorded in/.test(w),
      );
    // the first: imported as this worktree's work, said once
    expect(await warned(session('a1', '/Users/alice/shop'))).toEqual([
      "the transcript was recorded in /Users/alice/shop, a folder this machine does not have (another machine's session): imported as this worktree's work; if it is another project's, import it into a workflow of its own (baton create, then baton import <file> -w <id>)",
    ]);
    // the same project, from a subfolder: nothing to say
    expect(await warned(session('a2', '/Users/alice/shop/api'))).toEqual([]);
    expect(await warned(session('b1', '/Users/bob/code/blog'))).toEqual([
      "the transcript was recorded in /Users/bob/code/blog, where none of this workflow's other transcripts was (/Users/alice/shop, /Users/alice/shop/api): if it is another project's session, import it into a workflow of its own (baton create, then baton import <file> -w <id>)",
    ]);
    await service.store.close();
  });

  it("names the files it changed under its folder as this worktree's, a later session's from a subfolder too", async () => {
    const { service, client, ref } = await inProcess();
    const session = (name: string, cwd: string, lines: string[]) => {
      const file = join(tempDir(), `${name}.jsonl`);
      const asked = {
        type: 'user',
        sessionId: name,
        cwd,
        message: { role: 'user', content: 'Fix the cart' },
      };
      writeFileSync(file, `${[JSON.stringify(asked), ...lines].join('\n')}\n`);
      return file;
    };
    const write = (id: string, path: string) =>
      claudeTool(id, 'Write', { file_path: path, content: 'x' }, 'File created');
    await importTranscriptFile(
      client,
      ref,
      session('a1', '/Users/alice/shop', write('w1', '/Users/alice/shop/src/cart.ts')),
      'claude-code',
    );
    await importTranscriptFile(
      client,
      ref,
      session('a2', '/Users/alice/shop/api', write('w2', '/Users/alice/shop/api/routes.ts')),
      'claude-code',
    );
    const done = /### Already Done[^\n]*\n([\s\S]*?)\n\n/.exec((await client.context(ref)).markdown)?.[1];
    expect(done).toMatch(/created api\/routes\.ts\b/);
    expect(done).toMatch(/created src\/cart\.ts\b/);
    expect(done).not.toContain('/Users/alice');
    await service.store.close();
  });
});

describe("the Git State of an imported session's briefing", () => {
  const session = (cwd: string, branch: string) => {
    const file = join(tempDir(), 'session.jsonl');
    const line = {
      type: 'user',
      sessionId: 's1',
      cwd,
      gitBranch: branch,
      message: { role: 'user', content: 'Fix it' },
    };
    writeFileSync(file, `${JSON.stringify(line)}\n`);
    return file;
  };
  const gitState = async (w: Awaited<ReturnType<typeof inProcess>>) =>
    /### Git State\n([\s\S]*?)\n\n/.exec((await w.client.context(w.ref)).markdown)?.[1];

  it('says where a session of another machine was recorded, and on which branch', async () => {
    const w = await inProcess();
    await importTranscriptFile(w.client, w.ref, session('/Users/bob/code/shop', 'fix-login'), 'claude-code');
    expect(await gitState(w)).toMatch(
      /^- The session's transcript was recorded in \/Users\/bob\/code\/shop on branch fix-login, not in this worktree\n- This worktree: branch main at /,
    );
    await w.service.store.close();
  });

  it('says the branch alone when recorded here on another, and nothing when here on the one checked out', async () => {
    const here = await inProcess();
    await importTranscriptFile(here.client, here.ref, session(here.repo, 'main'), 'claude-code');
    expect(await gitState(here)).toMatch(/^- Branch main at [0-9a-f]{7} "initial", no uncommitted changes$/);
    const other = await inProcess();
    await importTranscriptFile(other.client, other.ref, session(other.repo, 'feature/login'), 'claude-code');
    expect(await gitState(other)).toMatch(
      /^- The session's transcript was recorded on branch feature\/login\n- This worktree: branch main at /,
    );
    await here.service.store.close();
    await other.service.store.close();
  });
});

describe('a transcript imported turn by turn, as the Stop hooks import it', () => {
  // a user's prompt begins a turn: Claude Code's user line with text, Codex's user_message event
  const turnStart = (l: string) =>
    /"type":"user_message"/.test(l) || (/"type":"user"/.test(l) && /"content":"[^"]/.test(l));
  it.each([
    ['claude-code', 'claude-code/codemie-code/session-624a4a58.jsonl'],
    ['claude-code', 'claude-code/codemie-code-2/session-196820da.jsonl'],
    // its amend names the commit it replaces only where that commit is in the lines read again (30 before a piece)
    ['claude-code', 'claude-code/entire-cli/70/33bba9319c/0/full.jsonl'],
    ['codex', 'codex/hk/e5/cb0813e003/0/full.jsonl'],
    ['codex', 'codex/codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'],
  ] as const)('records what one import of the whole file does (%s: %s)', async (source, rel) => {
    const lines = readFileSync(corpusPath(rel), 'utf8').split('\n');
    const path = join(tempDir(), 'growing.jsonl');
    writeFileSync(path, '');
    const turns = await inProcess();
    let turn: string[] = [];
    let pieces = 0;
    const flush = async () => {
      if (!turn.some((l) => l.trim())) return;
      appendFileSync(path, turn.join('\n') + '\n');
      turn = [];
      pieces++;
      await importTranscriptFile(turns.client, turns.ref, path, source);
    };
    for (const l of lines) {
      // the lines before the first prompt go with it: the first Stop hook comes after the first turn
      if (turnStart(l) && turn.some(turnStart)) await flush();
      if (l.trim()) turn.push(l);
    }
    await flush();
    expect(pieces).toBeGreaterThanOrEqual(3);
    const whole = await inProcess();
    await importTranscriptFile(whole.client, whole.ref, path, source);
    const all = await recorded(whole);
    // the user's corrections (they answer the agent's reply of the turn before) are among the decisions
    expect(all.decision!.length + all.error!.length).toBeGreaterThan(0);
    const got = await recorded(turns);
    const amends = / \(amends [^)]+\)$/;
    const far = all.side_effect!.filter((e) => amends.test(JSON.parse(e) as string));
    if (rel.includes('entire-cli/70')) {
      // the amended commit is far back: the amend is recorded as one of "an earlier commit", which the context finds
      // among the recorded commits with git (done-commits.ts)
      expect(far).toHaveLength(1);
      expect(got.side_effect!.filter((e) => e.includes('(amends an earlier commit)'))).toHaveLength(1);
      for (const r of [all, got])
        r.side_effect = r.side_effect!.map((e) =>
          JSON.stringify((JSON.parse(e) as string).replace(amends, '')),
        );
    }
    expect(got).toEqual(all);
    await turns.service.store.close();
    await whole.service.store.close();
  });

  it('a CI check failing in one turn and passing in a later one is fixed by the later import, as by one import', async () => {
    // the first turn reads `gh pr checks 222` (type-check failing, its log read); line 98 is the next prompt, and
    // type-check passes on the new PR at line 759
    const rel = 'claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl';
    const lines = readFileSync(corpusPath(rel), 'utf8').split('\n');
    expect(lines[97]).toContain('MCP 2.0');
    const path = join(tempDir(), 'growing.jsonl');
    writeFileSync(path, lines.slice(0, 97).join('\n') + '\n');
    const two = await inProcess();
    await importTranscriptFile(two.client, two.ref, path, 'claude-code');
    const first = (await two.client.status(two.ref)) as { open_errors: { error_type: string }[] };
    expect(first.open_errors.map((e) => e.error_type)).toContain('ci_failure');
    appendFileSync(path, lines.slice(97).join('\n'));
    await importTranscriptFile(two.client, two.ref, path, 'claude-code');
    const whole = await inProcess();
    await importTranscriptFile(whole.client, whole.ref, path, 'claude-code');
    const all = await recorded(whole);
    expect(all.error).toContainEqual(
      expect.stringMatching(/^"CI check failed: type-check, CI: .*\[fixed\]"$/),
    );
    expect(await recorded(two)).toEqual(all);
    const after = (await two.client.status(two.ref)) as {
      open_errors: { error_type: string }[];
      recent_resolved_errors: { error_type: string; resolution_notes: string | null }[];
    };
    expect(after.open_errors.map((e) => e.error_type)).not.toContain('ci_failure');
    expect(after.recent_resolved_errors.find((e) => e.error_type === 'ci_failure')?.resolution_notes).toBe(
      'check type-check passed later (transcript line 759)',
    );
    await two.service.store.close();
    await whole.service.store.close();
  });

  it.each([
    ['in one piece', 0],
    ['its request and its work in two pieces', 3],
  ])(
    'an error got round in the opening turn of a later conversation is worked around, as by one import (%s)',
    async (_, split) => {
      // the hk rollout: `sh: pkl: command not found` (line 239) ends the first conversation; a new session (its
      // session line, the request of line 198) runs `mise exec -- pkl format` (lines 242-243) first
      const lines = readFileSync(corpusPath('codex/hk/e5/cb0813e003/0/full.jsonl'), 'utf8').split('\n');
      const w = await inProcess();
      const first = join(tempDir(), 'first.jsonl');
      writeFileSync(first, lines.slice(0, 240).join('\n') + '\n');
      await importTranscriptFile(w.client, w.ref, first, 'codex');
      const pkl = (s: { error_message: string }) => s.error_message.endsWith('sh: pkl: command not found');
      const before = (await w.client.status(w.ref)) as { open_errors: { error_message: string }[] };
      expect(before.open_errors.filter(pkl)).toHaveLength(1);
      const second = join(tempDir(), 'second.jsonl');
      const taking = [196, 197, 198, 241, 242, 243].map((i) => lines[i] as string);
      writeFileSync(second, '');
      for (const piece of split ? [taking.slice(0, split), taking.slice(split)] : [taking]) {
        appendFileSync(second, piece.join('\n') + '\n');
        await importTranscriptFile(w.client, w.ref, second, 'codex');
      }
      const after = (await w.client.status(w.ref)) as {
        open_errors: { error_message: string }[];
        recent_resolved_errors: {
          error_message: string;
          resolution: string;
          resolution_notes: string | null;
        }[];
      };
      expect(after.open_errors.filter(pkl)).toEqual([]);
      expect(after.recent_resolved_errors.find(pkl)).toMatchObject({
        resolution: 'workaround',
        resolution_notes: expect.stringMatching(
          // the line is the later conversation's transcript's, named as the error's is not it
          /^a different shell call succeeded \(transcript line 5 of \S+second\.jsonl\): `mise exec -- pkl --version/,
        ),
      });
      const context = (await w.client.context(w.ref)) as { markdown: string };
      expect(context.markdown).toMatch(
        /pkl: command not found \[workaround: `mise exec -- pkl --version[^`]*` worked instead\]/,
      );
      await w.service.store.close();
    },
  );
});

describe('a pause of a workflow whose last session was imported', () => {
  it('takes effect at once, naming the task in progress: no agent works on an imported session', async () => {
    const { baton } = workspace();
    expect((await baton('create', '--title', 'imported')).code).toBe(0);
    // a Codex session whose plan ends with its last step in progress
    const rollout =
      'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    expect((await baton('import', 'codex', corpusPath(rollout))).code).toBe(0);
    const before = (await baton('status', '--json')).json<{
      workflow: { status: string };
      tasks: { id: string; status: string }[];
    }>();
    expect(before.workflow.status).toBe('in_progress');
    expect(before.tasks.find((t) => t.status === 'in_progress')?.id).toBe('T3');
    const paused = await baton('pause', '--reason', 'end of day');
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toMatch(/^paused wf-\S+ \(snapshot snap-\S+\)$/m);
    expect(paused.stdout).toContain(
      'warning: paused while T3 was in progress in an imported session, which no agent works on',
    );
    expect((await baton('status', '--json')).json<{ workflow: { status: string } }>().workflow.status).toBe(
      'paused',
    );
  });

  it('still waits for the task boundary in a session driven by hand, with nothing imported', async () => {
    const { baton } = workspace();
    expect((await baton('create', '--title', 'by hand', '--task', 'T1:Build')).code).toBe(0);
    expect((await baton('task', 'start', 'T1')).code).toBe(0);
    const asked = await baton('pause');
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toMatch(/^pause requested for wf-\S+: it pauses when T1 finishes/);
  });
});

describe('the import report', () => {
  it('says which extractor answered, and the usage with output tokens and the peak context', async () => {
    const { baton } = workspace();
    await baton('create', '--title', 'report');
    const r = await baton('import', 'claude-code', corpusPath(LONG));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/extracted by rules/);
    expect(r.stdout).toMatch(
      /usage: [\d,]+ tokens \(output ~[\d,]+, estimated where the transcript undercounts\), context now [\d,]+, peak [\d,]+ of [\d,]+/,
    );
    // the same figure in `baton status`, said the same way
    expect((await baton('status')).stdout).toMatch(
      /^usage: [\d,]+ tokens \(output ~[\d,]+, estimated where the transcript undercounts\), 152 calls/m,
    );
    expect(r.stdout).toMatch(/compaction at line 1256 \(2026-/);
  });
});

/** A local endpoint that answers every request with a server error. */
async function failingLlm(): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'boom' } }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/chat/completions`, server, hits: () => hits };
}

describe('the LLM extractor falling back to the rules is reported', () => {
  it('in the result, the transcript.imported event and the CLI output (text and --json)', async () => {
    const llm = await failingLlm();
    try {
      const { service, client, ref } = await inProcess();
      const extractor = new LlmExtractor({ kind: 'openai', baseUrl: llm.url, model: 'm', timeoutMs: 5000 });
      const r = await importTranscriptFile(
        client,
        ref,
        corpusPath('claude-code/spotter/short.jsonl'),
        'claude-code',
        {
          extractor,
        },
      );
      expect(llm.hits()).toBeGreaterThan(0);
      expect(r.extractor.used).toBe('rules');
      expect(r.extractor.fallback_reason).toMatch(/answered 500/);
      const id = r.workflow_id;
      const event = (await service.store.readEvents(id)).find((e) => e.type === 'transcript.imported');
      expect(event?.data).toMatchObject({
        extractor: 'rules',
        fallback_reason: expect.stringMatching(/500/),
      });
      await service.store.close();

      const { baton } = workspace();
      await baton('create', '--title', 'llm fallback');
      // the protocol read from the URL's path: no --llm-kind needed
      const args = ['--extractor', 'llm', '--llm-url', llm.url, '--llm-model', 'm'];
      const text = await baton(
        'import',
        'claude-code',
        corpusPath('claude-code/spotter/short.jsonl'),
        ...args,
      );
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(
        /extracted by rules \(fallback: llm extraction failed.*500.*; used rules\)/,
      );
      const { baton: other } = workspace();
      await other('create', '--title', 'llm fallback json');
      const json = await other('import', 'codex', corpusPath(CODEX), ...args, '--json');
      expect(json.code, json.stderr).toBe(0);
      expect(json.json<{ extractor: { used: string; fallback_reason: string } }>().extractor).toMatchObject({
        used: 'rules',
        fallback_reason: expect.stringMatching(/500/),
      });
    } finally {
      await new Promise<void>((done) => llm.server.close(() => done()));
    }
  });
});

/** Codex rollout lines as Codex 0.159 writes them: a user request, the agent's words, exec_command calls. */
function rollout(cwd: string) {
  const at = '2026-11-29T21:07:57.311Z';
  const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: at, type, payload });
  let n = 0;
  return {
    meta: () =>
      line('session_meta', { id: 'a1b2c3d4-0000-4000-8000-000000000001', cwd, cli_version: '0.159.3' }),
    ask: (text: string) => [
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }),
      line('event_msg', { type: 'user_message', message: text }),
    ],
    say: (text: string) =>
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }),
    exec: (cmd: string, output: string, code: number) => {
      const id = `call_${++n}`;
      return [
        line('response_item', {
          type: 'function_call',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd }),
          call_id: id,
        }),
        line('response_item', {
          type: 'function_call_output',
          call_id: id,
          output: `Chunk ID: 7f3a\nWall time: 1.2 seconds\nProcess exited with code ${code}\nOriginal token count: 40\nOutput:\n${output}`,
        }),
      ];
    },
  };
}

describe('an error worked around in one import', () => {
  it('is fixed by a later import where the same command succeeds', async () => {
    const w = await inProcess();
    const r = rollout(w.repo);
    const path = join(tempDir(), 'rollout-2026-11-29T21-07-54-a1b2c3d4.jsonl');
    const refused =
      'npm error code ECONNREFUSED\nnpm error network request to https://registry.npmjs.org/vite failed';
    writeFileSync(
      path,
      [
        r.meta(),
        ...r.ask('Set up the project'),
        ...r.exec('npm ci', refused, 1),
        r.say("The registry is unreachable from here; I'll install from the vendored tarballs instead."),
        ...r.exec('npm install --offline ./vendor/vite-5.4.2.tgz', 'added 12 packages in 2s', 0),
      ].join('\n') + '\n',
    );
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    const fate = async () =>
      (await w.service.store.listRecords(w.id, 'error')).map(
        (x) => (x.data as { resolution: string }).resolution,
      );
    expect(await fate()).toEqual(['workaround']);

    appendFileSync(
      path,
      [
        ...r.ask('The registry is back, redo it properly'),
        ...r.exec('npm ci', 'added 311 packages in 9s', 0),
      ].join('\n') + '\n',
    );
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    expect(await fate()).toEqual(['fixed']);
    const status = (await w.client.status(w.ref)) as {
      recent_resolved_errors: {
        resolution: string;
        resolution_notes: string;
        evidence?: { transcript: string; line: number };
      }[];
    };
    expect(status.recent_resolved_errors.map((e) => [e.resolution, e.resolution_notes])).toEqual([
      ['fixed', expect.stringMatching(/^succeeded later \(transcript line \d+\)$/)],
    ]);
    // the error names the transcript and line it was seen at: the note's "transcript line N" is a later line of it
    const [fixed] = status.recent_resolved_errors;
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(fixed?.evidence?.transcript).toBe(path);
    expect(lines[(fixed?.evidence?.line ?? 0) - 1]).toContain('ECONNREFUSED');
    const later = Number(/transcript line (\d+)/.exec(fixed?.resolution_notes ?? '')?.[1]);
    expect(lines[later - 1]).toContain('added 311 packages');
    await w.service.store.close();
  });
});

describe('an error the agent left for later', () => {
  it('is deferred with its words, shown so in the context, and fixed by a later import where it succeeds', async () => {
    const w = await inProcess();
    const r = rollout(w.repo);
    const path = join(tempDir(), 'rollout-2026-12-05T09-00-00-a1b2c3d4.jsonl');
    writeFileSync(
      path,
      [
        r.meta(),
        ...r.ask('Add the --json flag to the report command'),
        ...r.exec('npm run lint', 'src/legacy/parse.js\n  12:5  error  no-unused-vars\n1 problem', 1),
        r.say('That lint error is pre-existing in src/legacy and unrelated to my changes; the flag is done.'),
      ].join('\n') + '\n',
    );
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    const errors = async () =>
      (await w.service.store.listRecords(w.id, 'error')).map(
        (x) => x.data as { resolution: string; resolution_notes: string },
      );
    expect(await errors()).toEqual([
      expect.objectContaining({
        resolution: 'deferred',
        resolution_notes: expect.stringMatching(
          /^That lint error is pre-existing .* \(transcript line \d+\)$/,
        ),
      }),
    ]);
    const context = await w.client.context(w.ref, 4000);
    expect(context.markdown).toMatch(/- command_failed: `npm run lint`: .*\[deferred\]/);
    expect(context.markdown).not.toContain('UNRESOLVED');

    appendFileSync(
      path,
      [...r.ask('Fix the legacy lint error too'), ...r.exec('npm run lint', '', 0)].join('\n') + '\n',
    );
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    expect((await errors()).map((e) => e.resolution)).toEqual(['fixed']);
    await w.service.store.close();
  });
});

describe('an error older than the open errors the state keeps', () => {
  it('is fixed by a later import where the same command succeeds', async () => {
    const w = await inProcess();
    const r = rollout(w.repo);
    const path = join(tempDir(), 'rollout-2026-12-02T10-00-00-a1b2c3d4.jsonl');
    writeFileSync(
      path,
      [r.meta(), ...r.ask('Build the docs'), ...r.exec('make docs', 'make: *** [docs] Error 2', 2)].join(
        '\n',
      ) + '\n',
    );
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    // more failures than the state keeps open (OPEN_ERRORS_LIMIT): the first one is only in its record now
    // each a minute after the one before (an import reads a line no older than what it has already checked)
    const minute = (lines: string[], m: number) =>
      lines.map((l) =>
        l.replace(/"timestamp":"[^"]+"/, `"timestamp":"2026-11-29T22:${String(m).padStart(2, '0')}:00.000Z"`),
      );
    const words = 'abcdefghijklmnopqrstuvwxyz'.split('').map((c) => `${c}${c}${c}`);
    const others = Array.from({ length: OPEN_ERRORS_LIMIT + 5 }, (_, i) =>
      minute(
        [
          ...r.ask(`Set up service ${i}`),
          // another failure each time (the same message with other numbers is one failure repeated)
          ...r.exec(`./setup-${words[i]}.sh`, `setup-${words[i]}: missing key ${words[i]}_url`, 1),
        ],
        i,
      ),
    ).flat();
    appendFileSync(path, others.join('\n') + '\n');
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    const state = await w.service.store.loadState(w.id);
    expect(state?.open_errors.some((e) => e.error_message.includes('make docs'))).toBe(false);

    appendFileSync(
      path,
      minute([...r.ask('Now the docs again'), ...r.exec('make docs', 'built 42 pages', 0)], 59).join('\n') +
        '\n',
    );
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    const docs = (await w.service.store.listRecords(w.id, 'error'))
      .map((x) => x.data as { error_message: string; resolution: string; resolution_notes?: string })
      .filter((e) => e.error_message.includes('make docs'));
    expect(docs.map((e) => e.resolution)).toEqual(['fixed']);
    expect(docs[0]?.resolution_notes).toMatch(/^succeeded later \(transcript line \d+\)$/);
    await w.service.store.close();
  });
});

describe('a test run failed by its coverage threshold alone', () => {
  it('is a red run whose failure names the threshold, not a test', async () => {
    const w = await inProcess();
    const r = rollout(w.repo);
    const path = join(tempDir(), 'rollout-2026-11-30T10-00-00-a1b2c3d4.jsonl');
    const gate = 'FAIL Required test coverage of 85.0% not reached. Total coverage: 75.65%';
    writeFileSync(
      path,
      [
        r.meta(),
        ...r.ask('Run the test gate'),
        ...r.exec(
          'pytest --cov=app --cov-fail-under=85',
          `TOTAL  562  100  76%\n${gate}\n11 passed in 0.22s`,
          1,
        ),
      ].join('\n') + '\n',
    );
    await importTranscriptFile(w.client, w.ref, path, 'codex');
    const state = await w.service.store.loadState(w.id);
    expect(state?.test_state).toMatchObject({
      phase: 'red',
      failing_tests: [gate],
      passed: 11,
      failed: 0,
      coverage: 76,
    });
    await w.service.store.close();
  });
});
