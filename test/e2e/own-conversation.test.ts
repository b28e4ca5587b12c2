import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// Two incomplete workflows in one worktree make a command without `-w` ambiguous. Run by an agent (its Bash tool, the
// MCP server it started) whose conversation the hooks tie to one of them, the command means that one.

type Json = Record<string, any>;

/**
 * A stand-in for Claude Code: a program named `claude` that runs the hooks of a conversation (their payloads in
 * `hooks`, in order), then `baton <args>` as its own child, its standard streams the program's, as the agent's Bash tool
 * and its MCP servers run.
 */
function standInAgent(repo: string, env: Record<string, string>, hooks: Json[]) {
  const dir = tempDir('baton-agent-');
  hooks.forEach((h, i) => writeFileSync(join(dir, `${i}.json`), JSON.stringify({ cwd: repo, ...h })));
  const claude = join(dir, 'claude');
  const runHooks = hooks
    .map(
      (h, i) =>
        `"${process.execPath}" "${batonBin}" hook ${h.hook_event_name} < "${dir}/${i}.json" >/dev/null 2>&1`,
    )
    .join('\n');
  writeFileSync(claude, `#!/bin/bash\n${runHooks}\n"${process.execPath}" "${batonBin}" "$@"\n`);
  chmodSync(claude, 0o755);
  return { claude, env: hermeticEnv(env) as Record<string, string> };
}

describe.runIf(process.platform === 'linux')("an agent's own commands, with two workflows open here", () => {
  it('mean the workflow its conversation follows, in the CLI and over MCP; elsewhere the choice is asked', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
    const transcript = join(tempDir('baton-transcript-'), 'own-0001.jsonl');
    writeFileSync(transcript, '');
    const agent = standInAgent(repo, env, [
      {
        hook_event_name: 'SessionStart',
        session_id: 'own-0001',
        source: 'startup',
        transcript_path: transcript,
      },
      {
        hook_event_name: 'UserPromptSubmit',
        session_id: 'own-0001',
        transcript_path: transcript,
        prompt: 'add a /health endpoint',
      },
    ]);
    // the hooks make the conversation's workflow; a person then creates another one here
    const first = spawn(agent.claude, ['--json', 'status'], { cwd: repo, env: agent.env });
    let out = '';
    first.stdout.on('data', (d: Buffer) => (out += d.toString()));
    expect(await new Promise((r) => first.once('exit', r))).toBe(0);
    const own = (JSON.parse(out) as Json).workflow.id as string;
    const created = await runCli(['--json', 'create', '--title', 'Release notes'], { cwd: repo, env });
    const other = created.json<Json>().id as string;
    expect(other).not.toBe(own);
    // said at once, where the person looks: the next command here may ask which one is meant
    expect(created.stderr).toContain(`has another incomplete workflow (${own} `);
    // a person's command (no agent above it) is asked which one
    const person = await runCli(['status'], { cwd: repo, env });
    expect(person.code).not.toBe(0);
    expect(person.stderr).toMatch(/2 incomplete workflows in .*; choose one with/);
    // the agent's Bash tool: its conversation's workflow
    const bash = spawn(agent.claude, ['--json', 'status'], { cwd: repo, env: agent.env });
    out = '';
    bash.stdout.on('data', (d: Buffer) => (out += d.toString()));
    expect(await new Promise((r) => bash.once('exit', r))).toBe(0);
    expect((JSON.parse(out) as Json).workflow.id).toBe(own);
    // the MCP server the agent started: the same
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: agent.claude, args: ['mcp'], cwd: repo, env: agent.env }),
    );
    try {
      const r = (await client.callTool({ name: 'next_task', arguments: {} })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect((JSON.parse(r.content[0]!.text) as Json).workflow.id).toBe(own);
    } finally {
      await client.close();
    }
  });
});
