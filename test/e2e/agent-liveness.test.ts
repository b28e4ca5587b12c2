import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { standInAgent } from '../helpers/stand-in-agent.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';
import { assertDashboardBuilt, launchChromium, waitForText } from '../helpers/browser.js';
import { pidAlive } from '../helpers/agent-workspace.js';
import { until } from '../helpers/until.js';

// At a session start, Baton tells a conversation still at work on the worktree's workflow from one that was cut off
// (a crash, a closed terminal): a conversation whose SessionEnd came is at work nowhere, and on Linux the agent process
// that ran its hooks is looked up, whatever its transcript's write time says.

type Json = Record<string, any>;

function workspace() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
  const hook = (event: string, fields: Json) =>
    runCli(['hook', event], {
      cwd: repo,
      env,
      input: JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }),
    });
  return { repo, env, hook };
}

/** Waits for an agent process the test killed to be gone (a kill takes effect a moment after it is sent). */
const gone = (pid: number) => until('the agent process to be gone', () => !pidAlive(pid));

/**
 * One Chromium for the file's dashboard tests, started by the first (a launch costs more than a page): each test opens
 * a page of its own, in a browser context of its own, and closes it.
 */
let chromium: Promise<Browser> | undefined;
const sharedChromium = () => (chromium ??= launchChromium());
afterAll(async () => {
  await (await chromium)?.close();
});

const now = () => new Date().toISOString();
const line = (sessionId: string, type: string, message: Json) =>
  JSON.stringify({ type, timestamp: now(), sessionId, message });

/** A transcript that holds the user's request and the agent's first words and a call that never returned. */
function cutTranscript(sessionId: string, request: string): string {
  const path = join(tempDir('baton-transcript-'), `${sessionId}.jsonl`);
  writeFileSync(
    path,
    `${[
      line(sessionId, 'user', { role: 'user', content: request }),
      line(sessionId, 'assistant', {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'text', text: 'Running the suite first.' }],
      }),
      line(sessionId, 'assistant', {
        id: 'm2',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu-1', name: 'Bash', input: { command: 'npm test' } }],
      }),
    ].join('\n')}\n`,
  );
  return path;
}

/** One call of the agent to the model (its usage on the line, as Claude Code writes it) that ran a command. */
const modelCall = (sessionId: string, id: string, input_tokens: number, output_tokens: number) =>
  line(sessionId, 'assistant', {
    id,
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    usage: { input_tokens, output_tokens, cache_read_input_tokens: 0 },
    content: [{ type: 'tool_use', id: `toolu-${id}`, name: 'Bash', input: { command: 'npm test' } }],
  });

/** A transcript named after its session: the user's request, then one call of 1,500 tokens (300 of output). */
function calledTranscript(sessionId: string): string {
  const path = join(tempDir('baton-transcript-'), `${sessionId}.jsonl`);
  const request = line(sessionId, 'user', { role: 'user', content: 'run the tests and fix what fails' });
  writeFileSync(path, `${request}\n${modelCall(sessionId, 'm1', 1200, 300)}\n`);
  return path;
}

/** The workflow's one crash snapshot, as `baton snapshot <id>` shows it. */
async function crashSnapshotShown(repo: string, env: Record<string, string | undefined>) {
  const snaps = (await runCli(['snapshots', '--json'], { cwd: repo, env })).json<Json>().snapshots as Json[];
  const crash = snaps.filter((x) => x.trigger === 'crash');
  expect(crash.length).toBe(1);
  const shown = await runCli(['snapshot', crash[0]!.id], { cwd: repo, env });
  expect(shown.code, shown.stderr).toBe(0);
  return shown;
}

const told = (stdout: string) =>
  stdout.trim() ? ((JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '') : '';

describe('a conversation at work, told from one cut off', () => {
  it.runIf(process.platform === 'linux')(
    'an agent left open at its prompt after its turn ended (a usage limit waited out) is not at work: the next conversation goes on',
    async () => {
      const { repo, env, hook } = workspace();
      const underAgent = standInAgent(repo, env);
      const sid = 'idle-0001';
      const path = cutTranscript(sid, 'add a CLI entry point');
      await hook('SessionStart', { session_id: sid, source: 'startup', transcript_path: path });
      await hook('UserPromptSubmit', {
        session_id: sid,
        transcript_path: path,
        prompt: 'add a CLI entry point',
      });
      appendFileSync(
        path,
        `${line(sid, 'user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu-1', content: '1 failing' }] })}\n`,
      );
      // its turn ends on a usage limit (StopFailure), and Claude Code stays open at its prompt
      const agent = await underAgent('StopFailure', {
        session_id: sid,
        transcript_path: path,
        error: 'rate_limit',
        last_assistant_message: "You've hit your session limit · resets 7pm (UTC)",
      });
      try {
        const codex = await hook('SessionStart', { session_id: 'idle-0002', source: 'startup' });
        expect(codex.code, codex.stderr).toBe(0);
        expect(told(codex.stdout)).not.toMatch(/another conversation/);
        const briefing = (JSON.parse(codex.stdout) as { hookSpecificOutput: Json }).hookSpecificOutput
          .additionalContext as string;
        expect(briefing).not.toContain('Another conversation is at work');
        expect(briefing).toContain('add a CLI entry point');
        // written to again (its turn under way once more), it is at work
        const busy = await underAgent('UserPromptSubmit', {
          session_id: sid,
          transcript_path: path,
          prompt: 'go on',
        });
        appendFileSync(path, `${line(sid, 'user', { role: 'user', content: 'go on' })}\n`);
        try {
          const third = await hook('SessionStart', { session_id: 'idle-0003', source: 'startup' });
          expect(told(third.stdout)).toMatch(
            new RegExp(`another conversation is at work in this worktree \\(its agent, process ${busy.pid}`),
          );
        } finally {
          process.kill(busy.pid, 'SIGKILL');
        }
      } finally {
        process.kill(agent.pid, 'SIGKILL');
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    'a conversation killed after it took the workflow over is no longer said cut off once the first one takes it back',
    async () => {
      const { repo, env, hook } = workspace();
      const underAgent = standInAgent(repo, env);
      // the first conversation stops on its usage limit, its window left open
      const first = cutTranscript('back-0001', 'add a CLI entry point');
      const a = { session_id: 'back-0001', transcript_path: first };
      await hook('SessionStart', { ...a, source: 'startup' });
      await hook('UserPromptSubmit', { ...a, prompt: 'add a CLI entry point' });
      await hook('StopFailure', {
        ...a,
        error: 'rate_limit',
        last_assistant_message: "You've hit your session limit",
      });
      // a second one goes on, does a step of its list, and is killed
      const second = cutTranscript('back-0002', 'go on with the CLI');
      const b = { session_id: 'back-0002', transcript_path: second };
      await hook('SessionStart', { ...b, source: 'startup' });
      const todos = [{ content: 'Write src/cli.js', status: 'completed', activeForm: 'Writing' }];
      await hook('PostToolUse', { ...b, tool_name: 'TodoWrite', tool_input: { todos }, tool_response: 'ok' });
      const agent = await underAgent('UserPromptSubmit', { ...b, prompt: 'and the --help flag' });
      process.kill(agent.pid, 'SIGKILL');
      await gone(agent.pid);
      const before = (await runCli(['status', '--json'], { cwd: repo, env })).json<{
        gone_agents?: Json[];
      }>();
      expect(before.gone_agents?.map((g) => g.transcript)).toEqual([second]);
      // back in the first window: it takes the workflow back, told of the other's work; the killed one is over
      const back = await hook('UserPromptSubmit', { ...a, prompt: 'the limit reset, go on' });
      expect(told(back.stdout)).toMatch(
        /^Baton: Claude Code \(Baton session \d+, asked "and the --help flag"\) worked on this workflow/,
      );
      const after = (await runCli(['status', '--json'], { cwd: repo, env })).json<{ gone_agents?: Json[] }>();
      expect(after.gone_agents).toBeUndefined();
    },
  );

  it('a /clear (SessionEnd, then a new transcript) is not another conversation at work', async () => {
    const { hook } = workspace();
    const one = cutTranscript('clear-0001', 'run the tests and fix what fails');
    await hook('SessionStart', { session_id: 'clear-0001', source: 'startup', transcript_path: one });
    await hook('UserPromptSubmit', {
      session_id: 'clear-0001',
      transcript_path: one,
      prompt: 'run the tests and fix what fails',
    });
    await hook('Stop', { session_id: 'clear-0001', transcript_path: one, stop_hook_active: false });
    const end = await hook('SessionEnd', { session_id: 'clear-0001', transcript_path: one, reason: 'clear' });
    expect(end.stderr).toMatch(/session 1 ended/);
    // the transcript was written moments ago; its conversation is over all the same
    const cleared = await hook('SessionStart', {
      session_id: 'clear-0002',
      source: 'clear',
      transcript_path: join(tempDir('baton-transcript-'), 'clear-0002.jsonl'),
    });
    expect(cleared.code).toBe(0);
    expect(cleared.stderr).not.toMatch(/another conversation/);
    expect(told(cleared.stdout)).not.toMatch(/another conversation|stopped in the middle/);
  });

  it("the crash snapshot of a session cut off is that session's: its number and usage, not the next one's", async () => {
    const { repo, env, hook } = workspace();
    const one = cutTranscript('usage-0001', 'add a licence');
    await hook('SessionStart', { session_id: 'usage-0001', source: 'startup', transcript_path: one });
    await hook('UserPromptSubmit', {
      session_id: 'usage-0001',
      transcript_path: one,
      prompt: 'add a licence',
    });
    await hook('Stop', { session_id: 'usage-0001', transcript_path: one, stop_hook_active: false });
    await hook('SessionEnd', { session_id: 'usage-0001', transcript_path: one, reason: 'clear' });
    // session 2 calls the model (its usage in its transcript), then dies in the middle of its turn
    const sid = 'usage-0002';
    const two = calledTranscript(sid);
    await hook('SessionStart', { session_id: sid, source: 'clear', transcript_path: two });
    await hook('UserPromptSubmit', {
      session_id: sid,
      transcript_path: two,
      prompt: 'run the tests and fix what fails',
    });
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(two, past, past);
    const third = await hook('SessionStart', { session_id: 'usage-0003', source: 'startup' });
    expect(told(third.stdout)).toMatch(
      /session 2 \(Claude Code session usage-0002\) stopped in the middle of its turn/,
    );
    const shown = await crashSnapshotShown(repo, env);
    expect(shown.stdout).toMatch(/: session 2, trigger crash,/);
    expect(shown.stdout).toMatch(/^usage: 1,500 tokens \(output 300\), 1 call\b/m);
  });

  it("the crash snapshot of a session cut off after another conversation started and asked nothing is the cut one's", async () => {
    const { repo, env, hook } = workspace();
    // session 1 calls the model (its usage in its transcript) and is at work, its transcript written moments ago
    const sid = 'idle-cut-0001';
    const one = calledTranscript(sid);
    await hook('SessionStart', { session_id: sid, source: 'startup', transcript_path: one });
    await hook('UserPromptSubmit', {
      session_id: sid,
      transcript_path: one,
      prompt: 'run the tests and fix what fails',
    });
    // another conversation opens beside it (session 2) and is asked nothing; then session 1 dies mid-turn
    const second = await hook('SessionStart', { session_id: 'idle-cut-0002', source: 'startup' });
    expect(told(second.stdout)).toMatch(
      /another conversation wrote its transcript in this worktree .* not taken as cut off/,
    );
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(one, past, past);
    const third = await hook('SessionStart', { session_id: 'idle-cut-0003', source: 'startup' });
    expect(told(third.stdout)).toMatch(
      /session 1 \(Claude Code session idle-cut-0001\) stopped in the middle of its turn/,
    );
    const shown = await crashSnapshotShown(repo, env);
    // session 1's number and usage, not the idle session 2's
    expect(shown.stdout).toMatch(/: session 1, trigger crash,/);
    expect(shown.stdout).toMatch(/^usage: 1,500 tokens \(output 300\), 1 call\b/m);
  });

  it('the usage of a session cut off, read from its transcript after another conversation started, is its own', async () => {
    const { repo, env, hook } = workspace();
    const sid = 'late-cut-0001';
    const one = calledTranscript(sid);
    await hook('SessionStart', { session_id: sid, source: 'startup', transcript_path: one });
    await hook('UserPromptSubmit', {
      session_id: sid,
      transcript_path: one,
      prompt: 'run the tests and fix what fails',
    });
    // another conversation opens beside it (session 2); session 1 calls the model once more, then dies mid-turn
    await hook('SessionStart', { session_id: 'late-cut-0002', source: 'startup' });
    appendFileSync(
      one,
      `${line(sid, 'user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu-m1', content: 'ok' }] })}\n${modelCall(sid, 'm2', 2000, 500)}\n`,
    );
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(one, past, past);
    const third = await hook('SessionStart', { session_id: 'late-cut-0003', source: 'startup' });
    expect(told(third.stdout)).toMatch(
      /session 1 \(Claude Code session late-cut-0001\) stopped in the middle of its turn/,
    );
    const status = (await runCli(['status', '--json'], { cwd: repo, env })).json<Json>();
    const by = (status.usage_by_session as Json[]).map((x) => [x.session_number, x.usage?.tokens_used ?? 0]);
    // both calls are session 1's; the workflow's total holds them once
    expect(by).toEqual([
      [1, 4_000],
      [2, 0],
      [3, 0],
    ]);
    expect(status.usage.tokens_used).toBe(4_000);
    const shown = await crashSnapshotShown(repo, env);
    expect(shown.stdout).toMatch(/: session 1, trigger crash,/);
    expect(shown.stdout).toMatch(/^usage: 4,000 tokens \(output 800\), 2 calls\b/m);
  });

  it.runIf(process.platform === 'linux')(
    "looks at the agent's process: running, the conversation is at work; gone, it was cut off",
    async () => {
      const { repo, env, hook } = workspace();
      const underAgent = standInAgent(repo, env);

      const sid = 'live-0001';
      const path = cutTranscript(sid, 'run the tests and fix what fails');
      await hook('SessionStart', { session_id: sid, source: 'startup', transcript_path: path });
      const agent = await underAgent('UserPromptSubmit', {
        session_id: sid,
        transcript_path: path,
        prompt: 'run the tests and fix what fails',
      });
      try {
        // its transcript unchanged for minutes (a long test run), its agent still running: at work, not cut off
        const past = new Date(Date.now() - 5 * 60_000);
        utimesSync(path, past, past);
        const second = await hook('SessionStart', { session_id: 'live-0002', source: 'startup' });
        expect(second.code).toBe(0);
        expect(told(second.stdout)).toMatch(
          new RegExp(
            `another conversation is at work in this worktree \\(its agent, process ${agent.pid}, still runs`,
          ),
        );
        expect(told(second.stdout)).not.toMatch(/stopped in the middle/);
        // while it runs, status says nothing of it being gone
        const running = await runCli(['status'], { cwd: repo, env });
        expect(running.stdout).not.toMatch(/no longer runs/);
        // and the agent is told the task in progress is the other conversation's, first thing
        const briefing = (JSON.parse(second.stdout) as { hookSpecificOutput: Json }).hookSpecificOutput
          .additionalContext as string;
        expect(briefing).toMatch(
          /### Warnings\n- Another conversation is at work on this workflow right now/,
        );
        expect(briefing).toContain('do not take them up or run them again');
        // the next step agrees with it: this session asks the user, it does not take up the other's turn
        expect(briefing).toMatch(
          /### What to Do Next\nAnother conversation is at work on this workflow \(Warnings above\): ask the user what this session should do before doing anything/,
        );
        expect(briefing).not.toMatch(/Continue from|finish what it says it was doing/);
        expect(briefing).toMatch(/### Last State \(another conversation's last message, /);
      } finally {
        process.kill(agent.pid, 'SIGKILL');
      }
      // the agent killed right after it wrote: a write moments ago, and no process; cut off
      await gone(agent.pid);
      // before any session starts again, status says the agent is gone, and what goes on with the workflow
      const status = await runCli(['status'], { cwd: repo, env });
      expect(status.stdout).toMatch(
        new RegExp(
          `^agent: Claude Code, session 1 \\(process ${agent.pid}\\) no longer runs, and no SessionEnd came \\(a crash, a kill or a quit\\): the next Claude Code session here goes on with this workflow`,
          'm',
        ),
      );
      const json = (await runCli(['status', '--json'], { cwd: repo, env })).json<{ gone_agents: Json[] }>();
      expect(json.gone_agents).toEqual([
        {
          agent: 'claude-code',
          pid: agent.pid,
          transcript: path,
          turn_ended: false,
          cut_off: false,
          name: 'Claude Code, session 1',
        },
      ]);
      // the server of the same Baton home says it in the status it serves (the dashboard shows it)
      const server = await startServerProcess(env.BATON_HOME, { cwd: repo });
      try {
        const id = (json as unknown as { workflow: { id: string } }).workflow.id;
        const served = (await (await server.api(`/api/workflows/${id}/status`)).json()) as Json;
        expect(served.gone_agents, server.report()).toEqual(json.gone_agents);
      } finally {
        await server.stop();
      }
      // the briefing shown now first reads what its transcript gained since Baton last read it; the agent's end is said
      // beside it, not in it
      const shown = await runCli(['context'], { cwd: repo, env });
      expect(shown.stderr).toMatch(
        new RegExp(
          `^note: Claude Code, session 1 \\(process ${agent.pid}\\) no longer runs, and no SessionEnd came \\(a crash, a kill or a quit\\)$`,
          'm',
        ),
      );
      expect(shown.stdout).not.toMatch(/no longer runs/);
      appendFileSync(
        path,
        `${[
          line(sid, 'assistant', {
            id: 'm3',
            role: 'assistant',
            content: [{ type: 'text', text: 'Two tests fail; fixing the first.' }],
          }),
          line(sid, 'assistant', {
            id: 'm4',
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu-2', name: 'Bash', input: { command: 'npm test -- parse' } },
            ],
          }),
        ].join('\n')}\n`,
      );
      const third = await hook('SessionStart', { session_id: 'live-0003', source: 'startup' });
      expect(third.code).toBe(0);
      // the conversation that was asked is named, not the one that started meanwhile and asked nothing
      expect(told(third.stdout)).toMatch(
        /Baton noticed that session 1 \(Claude Code session live-0001\) stopped in the middle of its turn/,
      );
      expect(told(third.stdout)).not.toMatch(/another conversation/);
      const out = JSON.parse(third.stdout) as { hookSpecificOutput: Json };
      expect(out.hookSpecificOutput.additionalContext).not.toContain('Another conversation is at work');
      expect(out.hookSpecificOutput.additionalContext).toContain('Two tests fail; fixing the first.');
      // that session went on with the workflow: status no longer says the agent is gone, nor that a next one will
      const after = await runCli(['status', '--json'], { cwd: repo, env });
      expect(after.json<Json>().gone_agents).toBeUndefined();
      expect((await runCli(['status'], { cwd: repo, env })).stdout).not.toMatch(/no longer runs/);
      expect((await runCli(['context'], { cwd: repo, env })).stderr).not.toMatch(/no longer runs/);
    },
  );

  it.runIf(process.platform === 'linux')(
    'an agent gone after its task list was done and its turn ended: status says the next session completes the workflow, as it does',
    async () => {
      const { repo, env, hook } = workspace();
      const underAgent = standInAgent(repo, env);
      const sid = 'd0e00001-0000-4000-8000-000000000001';
      const path = join(tempDir('baton-transcript-'), `${sid}.jsonl`);
      const todos = [{ content: 'Add the LICENSE', status: 'completed', activeForm: 'Adding the LICENSE' }];
      writeFileSync(
        path,
        `${[
          line(sid, 'user', { role: 'user', content: 'add an MIT LICENSE' }),
          line(sid, 'assistant', {
            id: 'm1',
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu-1', name: 'TodoWrite', input: { todos } }],
          }),
          line(sid, 'user', {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu-1', content: 'Todos have been modified' }],
          }),
          line(sid, 'assistant', {
            id: 'm2',
            role: 'assistant',
            content: [{ type: 'text', text: 'The LICENSE is added.' }],
          }),
        ].join('\n')}\n`,
      );
      await hook('SessionStart', { session_id: sid, source: 'startup', transcript_path: path });
      await hook('UserPromptSubmit', {
        session_id: sid,
        transcript_path: path,
        prompt: 'add an MIT LICENSE',
      });
      const agent = await underAgent('Stop', {
        session_id: sid,
        transcript_path: path,
        stop_hook_active: false,
      });
      process.kill(agent.pid, 'SIGKILL');
      await gone(agent.pid);
      const status = await runCli(['status'], { cwd: repo, env });
      expect(status.stdout).toMatch(
        new RegExp(
          `^agent: Claude Code, session 1 \\(process ${agent.pid}\\) no longer runs, and no SessionEnd came \\(a crash, a kill or a quit\\): its task is done and Claude Code session ${sid} is over \\(its process exited\\), so the next Claude Code session here completes this workflow and starts a new one$`,
          'm',
        ),
      );
      const next = await hook('SessionStart', { session_id: 'done-0002', source: 'startup' });
      expect(told(next.stdout)).toMatch(
        /^Baton completed workflow wf-\S+ \("add an MIT LICENSE"\): its task is done/,
      );
    },
  );

  it.runIf(process.platform === 'linux')(
    'a conversation reopened (--resume) while its agent still runs elsewhere is not cut off; once that agent is gone, it is',
    async () => {
      const { repo, env, hook } = workspace();
      const underAgent = standInAgent(repo, env);
      const sid = 'again-0001';
      const path = cutTranscript(sid, 'run the tests and fix what fails');
      await hook('SessionStart', { session_id: sid, source: 'startup', transcript_path: path });
      const agent = await underAgent('UserPromptSubmit', {
        session_id: sid,
        transcript_path: path,
        prompt: 'run the tests and fix what fails',
      });
      const past = new Date(Date.now() - 5 * 60_000);
      utimesSync(path, past, past);
      try {
        // its agent still runs the turn (a long test run): a second `--resume` of it is no sign of a cut
        const again = await hook('SessionStart', {
          session_id: sid,
          source: 'resume',
          transcript_path: path,
        });
        expect(again.code).toBe(0);
        expect(again.stderr).not.toMatch(/stopped in the middle/);
        expect(told(again.stdout)).toBe('');
      } finally {
        process.kill(agent.pid, 'SIGKILL');
      }
      await gone(agent.pid);
      const reopened = await hook('SessionStart', {
        session_id: sid,
        source: 'resume',
        transcript_path: path,
      });
      expect(told(reopened.stdout)).toMatch(
        new RegExp(
          `^Baton noticed that session 1 \\(Claude Code session ${sid}\\) stopped in the middle of its turn`,
        ),
      );
    },
  );
});

describe.runIf(process.platform === 'linux')(
  'an agent killed in the middle of its turn, before any session starts again',
  () => {
    it('is said cut off by `baton status`, and `baton recover` says to start the agent again', async () => {
      const { repo, env } = workspace();
      const underAgent = standInAgent(repo, env);
      const sid = 'kill-0001';
      const path = cutTranscript(sid, 'run the tests and fix what fails');
      const start = await underAgent('SessionStart', {
        session_id: sid,
        source: 'startup',
        transcript_path: path,
      });
      process.kill(start.pid, 'SIGKILL');
      const agent = await underAgent('UserPromptSubmit', {
        session_id: sid,
        transcript_path: path,
        prompt: 'run the tests and fix what fails',
      });
      process.kill(agent.pid, 'SIGKILL');
      await gone(agent.pid);
      const status = await runCli(['status'], { cwd: repo, env });
      expect(status.stdout).toMatch(
        new RegExp(
          `^agent: Claude Code, session 1 \\(process ${agent.pid}\\) no longer runs, cut off in the middle of its turn by a crash or a kill \\(no Stop came after the last prompt\\): the next Claude Code session here goes on with this workflow, from its briefing, told what was cut off$`,
          'm',
        ),
      );
      // nor is its session said to be running: the next session of the agent goes on with it (the dashboard's panel,
      // its list of the sessions that can be resumed)
      const session = (await runCli(['session-status', '--json'], { cwd: repo, env })).json<Json>();
      expect(session).toMatchObject({
        is_agent_running: false,
        is_resumable: true,
        resume_by: 'next_session',
      });
      expect(session.agent_running_note).toBe(
        `no (Claude Code session ${sid}: its process is gone, cut off in the middle of its turn); the next Claude Code session in its worktree goes on with it`,
      );
      const rows = (await runCli(['sessions', '--json'], { cwd: repo, env })).json<{ sessions: Json[] }>();
      expect(rows.sessions[0]).toMatchObject({ resumable: true, resume_by: 'next_session' });
      // and its row says what needs its user, as the dashboard's list does: the agent cut off, named by this machine's hooks
      expect(rows.sessions[0]!.needs_you).toEqual([
        `agent: Claude Code, session 1 (process ${agent.pid}) no longer runs, cut off in the middle of its turn by a crash or a kill (no Stop came after the last prompt)`,
      ]);
      // one whose turn had ended before its process went (a closed terminal between turns) was not cut off
      const quiet = workspace();
      const between = standInAgent(quiet.repo, quiet.env);
      const done = cutTranscript('quit-0001', 'say hello');
      await quiet.hook('SessionStart', { session_id: 'quit-0001', source: 'startup', transcript_path: done });
      await quiet.hook('UserPromptSubmit', {
        session_id: 'quit-0001',
        transcript_path: done,
        prompt: 'say hello',
      });
      const last = await between('Stop', {
        session_id: 'quit-0001',
        transcript_path: done,
        stop_hook_active: false,
      });
      process.kill(last.pid, 'SIGKILL');
      await gone(last.pid);
      const idle = (
        await runCli(['session-status', '--json'], { cwd: quiet.repo, env: quiet.env })
      ).json<Json>();
      expect(idle.agent_running_note).toMatch(
        /^no turn under way \(Claude Code session quit-0001: quit, or waiting for its user\)/,
      );
      const recover = await runCli(['recover'], { cwd: repo, env });
      expect(recover.code).toBe(0);
      expect(recover.stdout).toContain(
        `Claude Code, session 1 (process ${agent.pid}) no longer runs, cut off in the middle of its turn`,
      );
      expect(recover.stdout).toContain(
        'To go on, start Claude Code again here (`claude`, or `claude --resume` to reopen that conversation): its session start reads what the last one wrote and goes on from the briefing',
      );
      expect(recover.stdout).toMatch(/is in_progress: it is not stopped/);
      const json = (await runCli(['recover', '--json'], { cwd: repo, env })).json<Json>();
      expect(json.gone_agents).toEqual([
        {
          agent: 'claude-code',
          pid: agent.pid,
          transcript: path,
          turn_ended: false,
          cut_off: true,
          name: 'Claude Code, session 1',
        },
      ]);
      // the dashboard's banner says it as `baton status` does: cut off in the middle of its turn; the agent named as
      // the dashboard names sessions, not by its internal id
      assertDashboardBuilt();
      const server = await startServerProcess(env.BATON_HOME, { cwd: repo, env: { HOME: env.HOME } });
      const page = await (await sharedChromium()).newPage();
      try {
        await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
        await page.goto(`${server.url}/#/workflows/${json.workflow_id as string}`);
        await waitForText(
          page.getByTestId('gone-agent'),
          `Claude Code, session 1 (process ${agent.pid}) no longer runs, cut off in the middle of its turn by a crash or a kill (no Stop came after the last prompt): the next session here goes on with this workflow, from its briefing, told what was cut off.`,
        );
        expect(await page.getByTestId('gone-agent').textContent()).not.toContain('claude-code');
      } finally {
        await page.close();
        await server.stop();
      }
    });
  },
);

describe.runIf(process.platform === 'linux')(
  'an agent killed in the middle of its turn while someone watches or pauses it',
  () => {
    /** A conversation whose agent (a live stand-in process) is in the middle of its turn: `kill` ends it for real. */
    async function midTurnAgent(sid: string) {
      const ws = workspace();
      const underAgent = standInAgent(ws.repo, ws.env);
      const path = cutTranscript(sid, 'make the CLI start faster');
      const start = await underAgent('SessionStart', {
        session_id: sid,
        source: 'startup',
        transcript_path: path,
      });
      process.kill(start.pid, 'SIGKILL');
      const agent = await underAgent('UserPromptSubmit', {
        session_id: sid,
        transcript_path: path,
        prompt: 'make the CLI start faster',
      });
      const kill = async () => {
        process.kill(agent.pid, 'SIGKILL');
        await gone(agent.pid);
      };
      const status = async () =>
        (await runCli(['status', '--json'], { cwd: ws.repo, env: ws.env })).json<Json>();
      return { ...ws, agent, kill, status, id: (await status()).workflow.id as string };
    }

    it('the open dashboard learns of it without a reload, and its session timeline agrees with its session status', async () => {
      const { repo, env, agent, kill, id } = await midTurnAgent('seen-0001');
      assertDashboardBuilt();
      const server = await startServerProcess(env.BATON_HOME, { cwd: repo, env: { HOME: env.HOME } });
      const page = await (await sharedChromium()).newPage();
      try {
        await page.addInitScript(`localStorage.setItem('baton.token', ${JSON.stringify(server.token)})`);
        await page.goto(`${server.url}/#/workflows/${id}`);
        await waitForText(
          page.getByTestId('agent-running'),
          'yes (Claude Code session seen-0001, reported by its hooks)',
        );
        await waitForText(page.locator('[data-testid="session-timeline"] [data-session="1"]'), 'running');
        // the page's first reads done (its resume context reads the transcript, which records what it holds): no
        // event comes of the kill to make it fetch again
        await page.waitForLoadState('networkidle');
        await kill();
        // the page, left as it is, learns of it all the same
        await waitForText(
          page.getByTestId('agent-running'),
          'no (Claude Code session seen-0001: its process is gone, cut off in the middle of its turn)',
        );
        await waitForText(
          page.getByTestId('gone-agent'),
          `Claude Code, session 1 (process ${agent.pid}) no longer runs, cut off in the middle of its turn`,
        );
        await waitForText(page.locator('[data-testid="session-timeline"] [data-session="1"]'), 'open');
        // the timeline's route judges the session as the session status does
        const timeline = (await (await server.api(`/api/workflows/${id}/sessions`)).json()) as Json;
        const session = (await (await server.api(`/api/workflows/${id}/session-status`)).json()) as Json;
        expect(timeline.sessions).toHaveLength(1);
        expect(timeline.sessions[0]).toMatchObject({
          state: session.state,
          is_agent_running: false,
          agent_running_note: session.agent_running_note,
        });
        expect(session.state).not.toBe('running');
      } finally {
        await page.close();
        await server.stop();
      }
    });

    it('a pause asked of it takes effect at once: there is no turn end to wait for', async () => {
      const { repo, env, kill, status } = await midTurnAgent('stop-0001');
      expect((await status()).pause_waits_for).toEqual({
        tasks: [],
        turn: { session_number: 1, agent: 'claude-code' },
      });
      await kill();
      expect((await status()).pause_waits_for).toBeNull();
      const paused = await runCli(['pause', '--reason', 'stop for today', '--json'], { cwd: repo, env });
      expect(paused.code, paused.stderr).toBe(0);
      expect(paused.json<Json>()).toMatchObject({
        outcome: 'paused',
        warning: "paused after the agent's process ended in the middle of its turn",
      });
      expect((await status()).workflow).toMatchObject({ status: 'paused', pause_reason: 'stop for today' });
    });

    it('a pause that waited for its turn takes effect once its death is noticed: at the next command', async () => {
      const { repo, env, kill, status } = await midTurnAgent('wait-0001');
      const asked = await runCli(['pause', '--reason', 'lunch', '--json'], { cwd: repo, env });
      expect(asked.json<Json>()).toMatchObject({ outcome: 'requested', waiting_for: [] });
      expect((await status()).workflow.status).toBe('in_progress');
      await kill();
      expect((await status()).workflow).toMatchObject({
        status: 'paused',
        pause_reason: 'lunch',
        pause_requested: false,
      });
    });

    it('... or by `baton serve` with no command to notice it', async () => {
      const { repo, env, kill } = await midTurnAgent('tick-0001');
      const server = await startServerProcess(env.BATON_HOME, { cwd: repo, env: { HOME: env.HOME } });
      try {
        const asked = await runCli(['pause', '--reason', 'lunch', '--json'], { cwd: repo, env });
        expect(asked.json<Json>()).toMatchObject({ outcome: 'requested' });
        await kill();
        // `baton list` reads the workflows as they are stored, taking no pause itself: the server took it
        await until(
          'the server to take the pause',
          async () => (await runCli(['list'], { cwd: repo, env })).stdout.includes('paused'),
          15_000,
          500,
        );
      } finally {
        await server.stop();
      }
    });
  },
);

describe('where the agent process cannot be seen (macOS; here, hooks run by no agent)', () => {
  const first = '019e1625-789d-76c0-80ab-3724b5ddb711';
  const second = '019e1625-789d-76c0-80ab-3724b5ddb712';

  /**
   * A Codex conversation that asked, planned and began, its rollout written moments ago; its turn then ended (`stop`:
   * a Stop came; `esc`: the user interrupted it, which Codex writes in the rollout and gives no hook; `limit`: a usage
   * limit stopped it, written in the rollout, no Stop read yet) or goes on.
   */
  async function codexMidPlan(turn: 'stop' | 'esc' | 'limit' | 'going') {
    const { repo, env, hook } = workspace();
    const path = finishedRollout(first, 'add an MIT LICENSE file', 'in_progress');
    const codex = (event: string, fields: Json = {}) =>
      hook(event, { session_id: first, turn_id: 't1', transcript_path: path, ...fields });
    await codex('SessionStart', { source: 'startup' });
    await codex('UserPromptSubmit', { prompt: 'add an MIT LICENSE file' });
    if (turn === 'stop') await codex('Stop', { last_assistant_message: 'The LICENSE file is half written.' });
    if (turn === 'esc')
      appendFileSync(
        path,
        `${JSON.stringify({ timestamp: now(), type: 'event_msg', payload: { type: 'turn_aborted', turn_id: 't1', reason: 'interrupted' } })}\n`,
      );
    if (turn === 'limit')
      appendFileSync(
        path,
        `${JSON.stringify({ timestamp: now(), type: 'event_msg', payload: { type: 'error', message: "You've hit your usage limit. Try again in 2 hours." } })}\n`,
      );
    const next = await hook('SessionStart', {
      session_id: second,
      source: 'startup',
      transcript_path: join(tempDir('baton-rollout-'), `rollout-x-${second}.jsonl`),
    });
    expect(next.code).toBe(0);
    const briefing = (JSON.parse(next.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    return { told: told(next.stdout), briefing, repo, env };
  }

  it('a conversation whose turn ended moments ago is not at work: `/new`, or a quit and a new start, goes on with the work', async () => {
    const { told: said, briefing } = await codexMidPlan('stop');
    expect(said).not.toMatch(/another conversation/);
    expect(said).toMatch(/^Baton continues workflow \S+ "add an MIT LICENSE file" in this conversation/);
    expect(briefing).not.toContain('Another conversation is at work');
    expect(briefing).toContain('Continue from task "T1: Write the LICENSE file"');
  });

  it('nor is one whose turn the user interrupted (Esc) moments ago', async () => {
    const { told: said, briefing } = await codexMidPlan('esc');
    expect(said).not.toMatch(/another conversation/);
    expect(briefing).not.toContain('Another conversation is at work');
    expect(briefing).toContain('The user interrupted the last turn');
  });

  it('nor is one a usage limit stopped moments ago: the new conversation goes on with the work', async () => {
    const { told: said, briefing, repo, env } = await codexMidPlan('limit');
    // the usage limit's snapshot the session start took names the session the limit stopped, as a Stop's would
    const snaps = await runCli(['snapshots', '--json'], { cwd: repo, env });
    const reasons = (
      JSON.parse(snaps.stdout) as { snapshots: { trigger: string; pause_reason: string | null }[] }
    ).snapshots
      .filter((x) => x.trigger === 'usage_limit')
      .map((x) => x.pause_reason);
    expect(reasons).toEqual([
      expect.stringMatching(/^stopped by a usage limit of Codex, session 1, resets at /),
    ]);
    expect(said).not.toMatch(/another conversation/);
    expect(said).toMatch(/stopped by a usage limit of Codex, session 1, resets at /);
    expect(briefing).not.toContain('Another conversation');
    expect(briefing).toContain(
      'The previous session ended because: stopped by a usage limit of Codex, session 1, resets at ',
    );
  });

  it('nor is one `baton import` read whole after its last write; written to again, it may be at work', async () => {
    const { repo, env, hook } = workspace();
    // a rollout of a conversation Baton's hooks never saw, written moments ago, imported by hand
    const path = finishedRollout(first, 'add an MIT LICENSE file', 'in_progress');
    expect((await runCli(['import', 'codex', path], { cwd: repo, env })).code).toBe(0);
    const start = (id: string) =>
      hook('SessionStart', {
        session_id: id,
        source: 'startup',
        transcript_path: join(tempDir('baton-rollout-'), `rollout-x-${id}.jsonl`),
      });
    const handed = await start(second);
    expect(told(handed.stdout)).not.toMatch(/another conversation/);
    // its agent (one without Baton's hooks) writes on: now it may be at work
    appendFileSync(
      path,
      `${JSON.stringify({ timestamp: now(), type: 'event_msg', payload: { type: 'agent_message', message: 'Now the README.' } })}\n`,
    );
    const again = await start('019e1625-789d-76c0-80ab-3724b5ddb713');
    expect(told(again.stdout)).toMatch(
      /another conversation wrote its transcript in this worktree \d+ s ago/,
    );
  });

  it('one that wrote moments ago in the middle of its turn may still be at work: the new one is warned', async () => {
    const { told: said, briefing } = await codexMidPlan('going');
    expect(said).toMatch(/another conversation wrote its transcript in this worktree \d+ s ago/);
    // only its write says so (no agent process seen): it may as well have crashed, which the user knows
    expect(briefing).toMatch(
      /### Warnings\n- Another conversation of this worktree wrote its transcript moments ago, and Baton cannot see whether its agent still runs: it may be at work on this workflow, or it may have been cut off/,
    );
    expect(briefing).toContain('ask the user whether that conversation is still open');
  });
});

/**
 * A stand-in for Codex: a program named `codex` that runs the hooks it is given, one after another, each with its
 * JSON from a file, then stays alive as the agent does. Returns its pid and the last hook's stdout.
 */
function standInCodex(repo: string, env: Record<string, string>) {
  const bin = tempDir('baton-codex-');
  const codex = join(bin, 'codex');
  writeFileSync(
    codex,
    // no subshell around a hook: the hook's parent is this process, as Codex is
    `#!/bin/bash\nwhile [ $# -gt 0 ]; do "${process.execPath}" "${batonBin}" hook "$1" --agent codex < "$2" > "$2.out"; last="$2.out"; shift 2; done\ncat "$last"\nexec sleep 600 >/dev/null 2>&1 </dev/null\n`,
  );
  chmodSync(codex, 0o755);
  return (...hooks: [string, Json][]) =>
    new Promise<{ stdout: string; pid: number }>((resolve, reject) => {
      const args = hooks.flatMap(([event, fields]) => {
        const file = join(bin, `${event}-${Math.random().toString(36).slice(2)}.json`);
        writeFileSync(file, JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }));
        return [event, file];
      });
      const child = spawn(codex, args, { cwd: repo, env: hermeticEnv(env), stdio: 'pipe' });
      let stdout = '';
      let open = 2;
      const closed = () => --open === 0 && resolve({ stdout, pid: child.pid ?? -1 });
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stdout.on('end', closed);
      child.stderr.on('end', closed);
      child.stderr.resume();
      child.on('error', reject);
      child.stdin.end();
    });
}

/**
 * A Codex rollout of one turn: the request, the plan (all done unless `status` says otherwise), the agent's answer.
 */
function finishedRollout(id: string, request: string, status = 'completed'): string {
  const path = join(tempDir('baton-rollout-'), `rollout-2026-11-30T09-00-00-${id}.jsonl`);
  const l = (type: string, payload: Json) => JSON.stringify({ timestamp: now(), type, payload });
  const plan = JSON.stringify({
    plan: [
      { step: 'Write the LICENSE file', status },
      ...(status === 'completed' ? [] : [{ step: 'Name the licence in the README', status: 'pending' }]),
    ],
  });
  writeFileSync(
    path,
    `${[
      l('session_meta', { id, cwd: '/tmp', cli_version: '0.144.2' }),
      l('event_msg', { type: 'user_message', message: request }),
      l('response_item', { type: 'function_call', name: 'update_plan', arguments: plan, call_id: 'call-p1' }),
      l('response_item', { type: 'function_call_output', call_id: 'call-p1', output: 'Plan updated' }),
      l('event_msg', { type: 'agent_message', message: 'The LICENSE file is written.' }),
    ].join('\n')}\n`,
  );
  return path;
}

describe.runIf(process.platform === 'linux')(
  'finished work, and the Codex conversation that did it over',
  () => {
    // a Codex older than its SessionEnd sends none: the process that ran the conversation's hooks says whether the user left it
    const first = '019e1625-789d-76c0-80ab-3724b5ddb701';
    const second = '019e1625-789d-76c0-80ab-3724b5ddb702';

    async function finishedConversation() {
      const { repo, env, hook } = workspace();
      const path = finishedRollout(first, 'add an MIT LICENSE file');
      const codex = (event: string, fields: Json = {}) =>
        hook(event, { session_id: first, turn_id: 't1', transcript_path: path, ...fields });
      await codex('SessionStart', { source: 'startup' });
      await codex('UserPromptSubmit', { prompt: 'add an MIT LICENSE file' });
      const stop: [string, Json] = [
        'Stop',
        {
          session_id: first,
          turn_id: 't1',
          transcript_path: path,
          last_assistant_message: 'The LICENSE file is written.',
        },
      ];
      return { repo, env, hook, stop, agent: standInCodex(repo, env) };
    }

    const startOf = (id: string): [string, Json] => [
      'SessionStart',
      {
        session_id: id,
        source: 'startup',
        transcript_path: join(tempDir('baton-rollout-'), `rollout-x-${id}.jsonl`),
      },
    ];

    it('the user quit Codex (its process is gone): a new conversation starts a new workflow at once', async () => {
      const { hook, stop, agent } = await finishedConversation();
      const ran = await agent(stop);
      process.kill(ran.pid, 'SIGKILL');
      await gone(ran.pid);
      const [event, fields] = startOf(second);
      const next = await hook(event, fields);
      expect(next.code).toBe(0);
      expect(told(next.stdout)).toMatch(
        new RegExp(
          `^Baton completed workflow \\S+ \\("add an MIT LICENSE file"\\): its task is done and Codex session ${first} is over \\(its process exited\\); this session is followed as a new workflow`,
        ),
      );
      // the agent is pointed at the MCP tool first for the finished work: its sandbox cannot run Baton's CLI
      const done = /Baton completed workflow (\S+)/.exec(told(next.stdout))?.[1] ?? '';
      const briefing = (JSON.parse(next.stdout) as { hookSpecificOutput: { additionalContext: string } })
        .hookSpecificOutput.additionalContext;
      expect(briefing).toContain(
        `the MCP tool get_resume_context with workflow_id ${done} shows it whole (\`baton context -w ${done}\` outside your sandbox)`,
      );
    });

    it('`/new` in the same Codex process: the new conversation starts a new workflow', async () => {
      const { stop, agent } = await finishedConversation();
      const ran = await agent(stop, startOf(second));
      process.kill(ran.pid, 'SIGKILL');
      expect(told(ran.stdout)).toMatch(
        new RegExp(
          `^Baton completed workflow \\S+ \\("add an MIT LICENSE file"\\): its task is done and Codex session ${first} is over \\(its process went on to another conversation\\)`,
        ),
      );
    });

    it('while that Codex still runs, the finished work is not taken as left', async () => {
      const { hook, stop, agent } = await finishedConversation();
      const ran = await agent(stop);
      try {
        const [event, fields] = startOf(second);
        const next = await hook(event, fields);
        expect(told(next.stdout)).not.toMatch(/completed workflow/);
      } finally {
        process.kill(ran.pid, 'SIGKILL');
      }
    });
  },
);
