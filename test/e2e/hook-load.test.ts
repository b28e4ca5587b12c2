import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

const bundle = fileURLToPath(new URL('../../dist/bin/', import.meta.url));

/** The files a CommonJS chunk of the hook's bundle loads as it is loaded (its top-level `require`s of its own chunks). */
function loadedWith(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(bundle, file), 'utf8');
  for (const m of text.matchAll(/^(?:const|let|var) \w+ = require\("\.\/([^"]+\.cjs)"\);$/gm))
    loadedWith(m[1]!, seen);
  return seen;
}

/**
 * A script loaded before the hook (NODE_OPTIONS=--require) that says on stderr each use of ICU, Node.js's locale
 * library, whose first use costs a hook 10 to 30 ms: a collation (`localeCompare`) or a formatter of `Intl`.
 */
function icuWatch(): string {
  const file = join(tempDir('baton-icu-'), 'icu-watch.cjs');
  writeFileSync(
    file,
    `const say = (what) => process.stderr.write('ICU used: ' + what + ' ' + new Error().stack.split('\\n')[3].trim() + '\\n');
const compare = String.prototype.localeCompare;
String.prototype.localeCompare = function (...a) { say('localeCompare'); return compare.apply(this, a); };
for (const name of ['Collator', 'DateTimeFormat', 'NumberFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter'])
  if (Intl[name]) Intl[name] = new Proxy(Intl[name], {
    construct: (t, a) => (say('Intl.' + name), new t(...a)),
    apply: (t, self, a) => (say('Intl.' + name), t.apply(self, a)),
  });
for (const [proto, name] of [[Number.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString'], [Date.prototype, 'toLocaleTimeString']]) {
  const f = proto[name];
  proto[name] = function (...a) { say(name); return f.apply(this, a); };
}
`,
  );
  return file;
}

/** A script loaded before `baton` (NODE_OPTIONS=--require) that says on stderr each V8 flag the process sets. */
function v8FlagWatch(): string {
  const file = join(tempDir('baton-v8-'), 'v8-watch.cjs');
  writeFileSync(
    file,
    `const v8 = require('node:v8');
const set = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => (process.stderr.write('V8 flags: ' + flags + '\\n'), set(flags));
`,
  );
  return file;
}

/** A script loaded before `baton` (NODE_OPTIONS=--require) that says on stderr, at exit, Node.js's modules it loaded. */
function builtinsWatch(): string {
  const file = join(tempDir('baton-builtins-'), 'builtins-watch.cjs');
  writeFileSync(
    file,
    `process.on('exit', () => process.stderr.write('builtins: ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));
`,
  );
  return file;
}

describe('what `baton hook` loads (it runs on every turn of an agent: what it loads, each turn pays)', () => {
  it("loads no schema, nor Baton's core, before it knows the event needs the store", () => {
    const chunks = [...loadedWith('hook.cjs')];
    expect(chunks).toContain('hook.cjs');
    const loaded = chunks.map((f) => readFileSync(join(bundle, f), 'utf8')).join('\n');
    // a PostToolUse of Read, a Stop with nothing new: answered without zod or the workflow's schemas
    expect(loaded).not.toMatch(/^\/\/ .*node_modules\/zod\//m);
    expect(loaded).not.toMatch(/^\/\/ dist\/core\/schemas\//m);
    expect(loaded).not.toMatch(/^\/\/ dist\/core\/(fold|workflow-machine|context\/)/m);
    // what it does load of the core: the error type, the task tools' names, the backup refs' names
    expect(loaded).toMatch(/^\/\/ dist\/core\/errors\.js$/m);
  });

  it("loads `baton init`'s module only for a session's start, not with the store side of every hook", () => {
    // hook.cjs imports the store side (hook-run) when the event needs the store: a Stop, a PostToolUse of TodoWrite
    const [storeSide] = [
      ...readFileSync(join(bundle, 'hook.cjs'), 'utf8').matchAll(/require\("\.\/(hook-run-[^"]+\.cjs)"\)/g),
    ];
    expect(storeSide).toBeDefined();
    const chunks = [...loadedWith(storeSide![1]!)];
    const loaded = chunks.map((f) => readFileSync(join(bundle, f), 'utf8')).join('\n');
    expect(loaded).toMatch(/^\/\/ dist\/cli\/hook-run\.js$/m);
    expect(loaded).not.toMatch(/^\/\/ dist\/integrations\/init\/init\.js$/m);
  });

  it("never loads ICU's collation or formatters in a turn's hooks", async () => {
    const { repo, baton } = hookWorkspace();
    const transcript = join(repo, 'session.jsonl');
    copyFileSync(corpusPath('claude-code/spotter/short.jsonl'), transcript);
    const watch = { NODE_OPTIONS: `--require ${icuWatch()}` };
    const hook = (event: string, fields: Record<string, unknown> = {}) =>
      baton(
        ['hook', event],
        JSON.stringify({
          session_id: 'S1',
          cwd: repo,
          transcript_path: transcript,
          hook_event_name: event,
          ...fields,
        }),
        watch,
      );
    const said: string[] = [];
    // workflows created at the terminal, the latest of which the hooks then follow: its events are in two files of
    // the run folder (the CLI's and the agent's), and the worktree's registry holds both
    expect((await baton(['create', 'An earlier workflow'])).code).toBe(0);
    expect((await baton(['create', 'The workflow of this session'])).code).toBe(0);
    const run = async (event: string, fields: Record<string, unknown> = {}) => {
      const r = await hook(event, fields);
      expect(r.code).toBe(0);
      said.push(`${event}: ${r.stderr}`);
    };
    await run('SessionStart', { source: 'startup' });
    await run('UserPromptSubmit', { prompt: 'Add a login page' });
    await run('PostToolUse', { tool_name: 'Read', tool_use_id: 'toolu_1', tool_input: { file_path: 'a' } });
    await run('PostToolUse', {
      tool_name: 'TodoWrite',
      tool_use_id: 'toolu_2',
      tool_input: { todos: [{ content: 'Write the page', status: 'in_progress', activeForm: 'Writing' }] },
      tool_response: {},
    });
    await run('Stop');
    // nothing new: the cheap Stop
    await run('Stop');
    appendFileSync(transcript, readFileSync(corpusPath('claude-code/spotter/tool_heavy.jsonl'), 'utf8'));
    await run('Stop');
    await run('PostToolUse', { tool_name: 'Bash', tool_use_id: 'toolu_3', tool_input: { command: 'ls' } });
    // a new conversation: the briefing is compiled and injected
    await run('SessionStart', { source: 'clear', session_id: 'S2' });
    expect(said.join('\n')).toMatch(/Stop: .*imported/);
    expect(said.join('\n')).toMatch(/Stop: .*nothing new/);
    expect(said.filter((s) => s.includes('ICU used'))).toEqual([]);
    // the watch sees what it watches
    const seen = spawnSync(process.execPath, ['-e', "'a'.localeCompare('b'); new Intl.DateTimeFormat()"], {
      env: { ...process.env, ...watch },
      encoding: 'utf8',
    });
    expect(seen.stderr).toMatch(/ICU used: localeCompare[^]*ICU used: Intl.DateTimeFormat/);
  });

  it("does not load Node.js's performance timing (perf_hooks) to time a hook", async () => {
    // the global `performance` loads it on its first use: a millisecond or two of each turn's hook
    const { repo, baton } = hookWorkspace();
    const transcript = join(repo, 'session.jsonl');
    copyFileSync(corpusPath('claude-code/spotter/short.jsonl'), transcript);
    const watch = { NODE_OPTIONS: `--require ${builtinsWatch()}` };
    const payload = (event: string) =>
      JSON.stringify({ session_id: 'S1', cwd: repo, transcript_path: transcript, hook_event_name: event });
    expect((await baton(['hook', 'UserPromptSubmit'], payload('UserPromptSubmit'), watch)).code).toBe(0);
    const stop = await baton(['hook', 'Stop'], payload('Stop'), watch);
    expect(stop.stderr).toMatch(/imported/);
    const loaded = /^builtins: (.*)$/m.exec(stop.stderr)?.[1]?.split(' ') ?? [];
    // the watch sees what the import loads
    expect(loaded).toContain('child_process');
    expect(loaded.filter((m) => m.includes('perf_hooks'))).toEqual([]);
  });

  it('compiles regular expressions straight to unoptimised machine code in a hook, not in a command', async () => {
    // a hook lives for one turn: V8's bytecode tier and its optimisation of the matching code cost it more than they
    // save (bin/baton.js)
    const { repo, baton } = hookWorkspace();
    const watch = { NODE_OPTIONS: `--require ${v8FlagWatch()}` };
    const payload = JSON.stringify({ session_id: 'S1', cwd: repo, hook_event_name: 'Stop' });
    const hook = await baton(['hook', 'Stop'], payload, watch);
    expect(hook.code).toBe(0);
    const flags = (text: string) => [...text.matchAll(/^V8 flags: (.*)$/gm)].map((m) => m[1]);
    expect(flags(hook.stderr)).toEqual(['--no-regexp-tier-up', '--no-regexp-optimization']);
    const command = await baton(['--version'], undefined, watch);
    expect(command.code).toBe(0);
    expect(flags(command.stderr)).toEqual([]);
  });
});
