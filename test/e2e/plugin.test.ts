import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hookSpecs, isBatonHook } from '../../src/integrations/init/hooks-file.js';
import { batonBin, runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// The Claude Code plugin in this repository (.claude-plugin/marketplace.json -> plugins/baton), checked against the
// documented format (../shared/INTEGRATIONS.md, Claude Code's plugin reference), and run as Claude Code runs it: each
// hook command through a shell with CLAUDE_PLUGIN_ROOT set and a real payload on stdin, the MCP entry with the real
// MCP SDK client.

const root = fileURLToPath(new URL('../../', import.meta.url));
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const kebab = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const Marketplace = z.object({
  name: z.string().regex(kebab),
  owner: z.object({ name: z.string().min(1) }),
  plugins: z
    .array(
      z.object({
        name: z.string().regex(kebab),
        source: z.string().startsWith('./'),
        description: z.string(),
      }),
    )
    .min(1),
});
const Manifest = z.object({
  name: z.string().regex(kebab),
  version: z.string().regex(/^\d+\.\d+\.\d+/),
  description: z.string().min(1),
  author: z.object({ name: z.string() }).optional(),
  license: z.string().optional(),
  keywords: z.array(z.string()).optional(),
});
const HookCommand = z.strictObject({
  type: z.literal('command'),
  command: z.string().min(1),
  timeout: z.number().int().positive(),
});
const HooksFile = z.object({
  description: z.string().optional(),
  hooks: z.record(
    z.string(),
    z.array(z.strictObject({ matcher: z.string().optional(), hooks: z.array(HookCommand).min(1) })),
  ),
});
const McpFile = z.object({
  mcpServers: z.record(z.string(), z.strictObject({ command: z.string(), args: z.array(z.string()) })),
});

/** The front matter of a skill or command file (`key: value` lines between `---` lines). */
function frontMatter(path: string): Record<string, string> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(path, 'utf8'));
  if (!m) throw new Error(`${path} has no front matter`);
  return Object.fromEntries(
    m[1]!.split('\n').map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
  );
}

const marketplace = Marketplace.parse(readJson(join(root, '.claude-plugin/marketplace.json')));
const pluginDir = join(root, marketplace.plugins[0]!.source);
const hooksFile = HooksFile.parse(readJson(join(pluginDir, 'hooks/hooks.json')));
const mcpFile = McpFile.parse(readJson(join(pluginDir, '.mcp.json')));

/** Runs a command line as Claude Code does: through a shell, CLAUDE_PLUGIN_ROOT set, the payload on stdin. */
function runShell(command: string, input: string, cwd: string, env: Record<string, string | undefined>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...env, CLAUDE_PLUGIN_ROOT: pluginDir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    // a command that exits before reading its input (no `baton` to run) closes the pipe: its exit says the rest
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

const corpusPayload = (file: string, index: number) =>
  (readJson(corpusPath(`hooks/serverless-plugins/${file}`)) as Record<string, unknown>[])[index]!;

describe('the Claude Code plugin', () => {
  it('has the documented files, and nothing but the manifest inside .claude-plugin/', () => {
    expect(marketplace.plugins.map((p) => p.name)).toEqual(['baton']);
    const manifest = Manifest.parse(readJson(join(pluginDir, '.claude-plugin/plugin.json')));
    expect(manifest.name).toBe('baton');
    expect(manifest.version).toBe((readJson(join(root, 'package.json')) as { version: string }).version);
    expect(readdirSync(join(pluginDir, '.claude-plugin'))).toEqual(['plugin.json']);

    const skills = readdirSync(join(pluginDir, 'skills'));
    expect(skills.length).toBeGreaterThan(0);
    for (const s of skills) {
      const fm = frontMatter(join(pluginDir, 'skills', s, 'SKILL.md'));
      expect(fm.name).toBe(s);
      expect(fm.description!.length).toBeGreaterThan(20);
    }
    const commands = readdirSync(join(pluginDir, 'commands')).sort();
    expect(commands).toEqual(['context.md', 'pause.md', 'status.md']);
    for (const c of commands) expect(frontMatter(join(pluginDir, 'commands', c)).description).toBeTruthy();
  });

  it("declares the hooks baton init writes, each running the plugin's launcher by ${CLAUDE_PLUGIN_ROOT}", () => {
    const declared = Object.entries(hooksFile.hooks).map(([event, ms]) => ({
      event,
      matcher: ms[0]!.matcher ?? null,
      timeout: ms[0]!.hooks[0]!.timeout,
      command: ms[0]!.hooks[0]!.command,
    }));
    const expected = hookSpecs('claude-code', { program: 'baton', args: [] });
    expect(declared.map(({ event, matcher, timeout }) => ({ event, matcher, timeout }))).toEqual(
      expected.map(({ event, matcher, timeout }) => ({ event, matcher, timeout })),
    );
    for (const d of declared) {
      expect(d.command).toBe(`sh "\${CLAUDE_PLUGIN_ROOT}/scripts/baton.sh" hook ${d.event}`);
      expect(isBatonHook(d.command)).toBe(true);
    }
    expect(existsSync(join(pluginDir, 'scripts/baton.sh'))).toBe(true);
    expect(mcpFile.mcpServers.baton).toEqual({
      command: 'sh',
      args: ['${CLAUDE_PLUGIN_ROOT}/scripts/baton.sh', 'mcp', '--agent', 'claude-code'],
    });
  });

  it('runs every declared hook on real payloads with no baton create, and baton doctor shows each one', async () => {
    const repo = makeRepo();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BATON_HOME: tempDir('baton-home-'),
      HOME: tempDir('baton-user-'),
      BATON_BIN: `${process.execPath} ${batonBin}`,
    };
    delete env.BATON_URL;
    const transcript = join(tempDir('baton-transcript-'), 'session.jsonl');
    const source = readFileSync(corpusPath('claude-code/codemie-code-2/session-196820da.jsonl'), 'utf8');
    writeFileSync(transcript, `${source.split('\n').slice(0, 30).join('\n')}\n`);
    const sid = '4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe';
    const common = { session_id: sid, cwd: repo, transcript_path: transcript };
    const todo = { todos: [{ content: 'Wire the plugin', status: 'in_progress', activeForm: 'Wiring' }] };
    const payloads: Record<string, Record<string, unknown>> = {
      SessionStart: { ...corpusPayload('session_start.json', 0), ...common },
      UserPromptSubmit: {
        ...corpusPayload('user_prompt_submit.json', 0),
        ...common,
        prompt: 'Ship Baton as a Claude Code plugin',
      },
      PostToolUse: {
        ...common,
        hook_event_name: 'PostToolUse',
        tool_name: 'TodoWrite',
        tool_input: todo,
        tool_response: {},
        tool_use_id: 'toolu_plugin_1',
      },
      PreCompact: { ...common, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' },
      PostCompact: {
        ...common,
        hook_event_name: 'PostCompact',
        trigger: 'auto',
        compact_summary: 'Wiring it.',
      },
      Stop: { ...common, hook_event_name: 'Stop', stop_hook_active: false },
      SessionEnd: { ...corpusPayload('session_end.json', 0), ...common },
    };
    for (const [event, matchers] of Object.entries(hooksFile.hooks)) {
      const r = await runShell(matchers[0]!.hooks[0]!.command, JSON.stringify(payloads[event]), repo, env);
      expect(r.code, `${event}: ${r.stderr}`).toBe(0);
      expect(r.stderr, event).toMatch(new RegExp(`^baton: ${event}: `));
      if (event === 'SessionStart') expect(r.stderr).toMatch(/following this session as workflow wf-/);
    }
    const status = (await runCli(['status', '--json'], { cwd: repo, env })).json<Record<string, any>>();
    // the transcript's turns were said before the prompt the hook saw: its first is the issue, the hook's prompt the
    // latest request, which the briefing keeps
    expect(status.workflow.issue.title).toMatch(/^there is logic that tracks files/);
    const briefing = (await runCli(['context', '--budget', '1500'], { cwd: repo, env })).stdout;
    expect(briefing).toContain('"Ship Baton as a Claude Code plugin"');
    // The hook's TodoWrite is the newest list (it runs now; the transcript's own lists were made months before): the
    // import at Stop reads those older lists and does not apply them over it (the newest list wins).
    expect(status.tasks.map((t: { title: string; status: string }) => [t.title, t.status])).toEqual([
      ['Wire the plugin', 'in_progress'],
    ]);
    const doctor = (await runCli(['doctor', '--json'], { cwd: repo, env })).json<Record<string, any>>();
    expect(doctor.last_hooks.map((h: { event: string }) => h.event).sort()).toEqual(
      Object.keys(hooksFile.hooks).sort(),
    );
    expect(new Set(doctor.last_hooks.map((h: { agent: string }) => h.agent))).toEqual(
      new Set(['claude-code']),
    );
  });

  it('says where the user sees it when the baton command is missing, and never fails the session', async () => {
    const repo = makeRepo();
    const env = { PATH: '/usr/bin:/bin', HOME: tempDir('baton-user-') };
    expect(existsSync('/usr/bin/baton') || existsSync('/bin/baton')).toBe(false);
    const r = await runShell(
      hooksFile.hooks.SessionStart![0]!.hooks[0]!.command,
      JSON.stringify({ ...corpusPayload('session_start.json', 0), cwd: repo }),
      repo,
      env,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { systemMessage: string };
    expect(out.systemMessage).toMatch(/the baton command is not: nothing of this session is recorded/);
    // the steps that work while Baton is not on the npm registry (README.md's), not an install of its package name
    expect(out.systemMessage).toContain('Baton is not on the npm registry yet');
    expect(out.systemMessage).toContain('`npm ci && npm link`');
    expect(out.systemMessage).not.toMatch(/agent-baton/);
    expect(r.stderr).toMatch(/^baton: SessionStart: /);
  });

  it('fails loudly when the MCP server has no baton command to run, and never fetches the package through npx', async () => {
    const repo = makeRepo();
    // an npx that says when it is run: the plugin must not reach for the registry in Baton's place
    const bin = tempDir('baton-bin-');
    const ran = join(bin, 'npx-ran');
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\necho "$@" > ${ran}\n`, { mode: 0o755 });
    const entry = mcpFile.mcpServers.baton!;
    const line = [
      entry.command,
      ...entry.args.map((a) => a.replace('${CLAUDE_PLUGIN_ROOT}', pluginDir)),
    ].join(' ');
    const r = await runShell(line, '', repo, { PATH: `${bin}:/usr/bin:/bin`, HOME: tempDir('baton-user-') });
    expect(existsSync(ran)).toBe(false);
    expect(r.code).toBe(127);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^baton: the baton command is not on the PATH .* cannot run `baton mcp --agent claude-code`/,
    );
    expect(r.stderr).toContain('Baton is not on the npm registry yet');
    expect(r.stderr).toContain('`npm ci && npm link`');
  });

  it('names no install of the unpublished package anywhere in the plugin (a name someone else could publish)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    for (const file of files(pluginDir))
      expect(readFileSync(file, 'utf8'), file).not.toMatch(
        /npx (-y )?agent-baton|npm install -g[^\n`]* agent-baton/,
      );
  });

  it("serves Baton's MCP tools through the plugin's MCP entry, every tool its commands name among them", async () => {
    const repo = makeRepo();
    const entry = mcpFile.mcpServers.baton!;
    const client = new Client({ name: 'plugin-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: entry.command,
        args: entry.args.map((a) => a.replace('${CLAUDE_PLUGIN_ROOT}', pluginDir)),
        cwd: repo,
        env: {
          ...(process.env as Record<string, string>),
          BATON_HOME: tempDir('baton-home-'),
          BATON_BIN: `${process.execPath} ${batonBin}`,
        },
      }),
    );
    try {
      const tools = new Set((await client.listTools()).tools.map((t) => t.name));
      const named = readdirSync(join(pluginDir, 'commands')).flatMap((c) =>
        [...readFileSync(join(pluginDir, 'commands', c), 'utf8').matchAll(/mcp__baton__(\w+)/g)].map(
          (m) => m[1]!,
        ),
      );
      expect(named.length).toBeGreaterThan(0);
      for (const t of named) expect(tools.has(t), t).toBe(true);
    } finally {
      await client.close();
    }
  });
});
