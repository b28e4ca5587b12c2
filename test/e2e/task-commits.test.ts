import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// A `command` agent prints no commit hashes: the commits a task that ended well made are read from git and put in the
// ledger as that task's, so the next task's prompt lists them as work done, not as commits nobody reported.

describe('the commits of a task a command agent did', () => {
  it("are the task's done work in the next prompt, not unreported ones", async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
    const prompts = tempDir('baton-prompts-');
    const script = join(tempDir('baton-cmd-'), 'agent.sh');
    // each task commits a file named after it, and keeps its prompt
    writeFileSync(
      script,
      `#!/bin/sh\nn=$(ls "${prompts}" | wc -l)\ncat > "${prompts}/$n.txt"\necho "$n" > "work-$n.txt"\ngit add "work-$n.txt" && git -c user.email=a@b -c user.name=a commit -qm "agent: task $n" && echo done\n`,
    );
    chmodSync(script, 0o755);
    const b = (...args: string[]) => runCli(args, { cwd: repo, env });
    expect((await b('create', '--title', 'Two', '--task', 'T1:one', '--task', 'T2:two:T1')).code).toBe(0);
    const run = await b('run', '--agent', 'command', '--agent-bin', script);
    expect(run.code, run.stderr).toBe(0);
    const second = readFileSync(join(prompts, readdirSync(prompts).sort()[1]!), 'utf8');
    expect(second).toMatch(/^- \[commit\] \(T1\) [0-9a-f]{12} agent: task 0$/m);
    expect(second).not.toContain("no agent's output reported it");
    // the ledger holds each task's commit, from git
    const status = (
      await b('--json', 'status', '-w', /wf-\w+/.exec(run.stdout + run.stderr)?.[0] ?? '')
    ).json<{
      side_effects: { kind: string; task_id: string; summary: string }[];
    }>();
    expect(
      status.side_effects.filter((e) => e.kind === 'commit').map((e) => [e.task_id, e.summary.slice(13)]),
    ).toEqual([
      ['T1', 'agent: task 0'],
      ['T2', 'agent: task 1'],
    ]);
  });
});
