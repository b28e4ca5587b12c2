import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexConversation, codexHook } from '../helpers/codex-conversation.js';
import { corpusPath } from '../helpers/corpus.js';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';
import { waitForText } from '../helpers/browser.js';
import { onWorkflowPage } from '../helpers/workflow-page.js';

/**
 * A task list the agent stopped updating while its own words say the work is over: Codex's plan left with its last
 * step in progress though its last message says "Verification passed", and a Claude Code task that a Codex session
 * finished in its own words (no update_plan, and Codex sends no PostToolUse for it, so no hook tells it of the task).
 * The next session is told such a task is probably done, to check, not that it is in progress.
 */
const briefingOf = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;

/** The workflow page marks the task probably done, with the agent's words, and still in progress. */
const dashboardSays = (env: Record<string, string>, repo: string, id: string, task: string, said: string) =>
  onWorkflowPage(env, repo, id, async (page) => {
    const row = page.locator(`[data-task="${task}"][data-status="in_progress"]`);
    await waitForText(row.getByTestId('probably-done'), 'probably done');
    await waitForText(
      row,
      `the agent's last message says \u201c${said}\u201d: the next session is asked to check it`,
    );
    expect(await page.getByTestId('probably-done').count()).toBe(1);
  });

describe('a task left in progress that the session says is over', () => {
  it('a real Codex rollout: its plan\'s last step in progress, its last message "Verification passed"', async () => {
    const { repo, baton, env } = hookWorkspace();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const id = '019e1625-789d-76c0-80ab-3724b5ddb799';
    const path = join(tempDir('baton-transcript-'), `rollout-2026-05-11T11-26-55-${id}.jsonl`);
    copyFileSync(corpusPath(`codex/codemie-code/rollout-2026-05-11T11-26-55-${id}.jsonl`), path);
    const codex = codexHook(baton, { repo, id, transcript: path });
    await codex('SessionStart', { source: 'startup' });
    // the requests come from the rollout with their times (a UserPromptSubmit sent now would be stamped now)
    const stop = await codex('Stop', { stop_hook_active: false });
    expect(stop.stderr).toMatch(/tasks: 3 added, 2 started, 2 completed/);
    // `baton status` and the dashboard say it as the briefing does: probably done, not plainly in progress
    const status = (await baton(['status'])).stdout;
    expect(status).toContain('tasks: 2/3 done, 1 in progress (1 probably done)');
    expect(status).toContain(
      `probably done: T3 Run focused verification (in progress, though the agent's last message says "Verification passed": the next session is asked to check it)`,
    );
    expect(status).toContain('next task: T3 Run focused verification (in progress, probably done)');
    const json = (await baton(['status', '--json'])).json<{
      workflow: { id: string };
      probably_done: unknown;
    }>();
    expect(json.probably_done).toEqual([
      { id: 'T3', title: 'Run focused verification', said: 'Verification passed' },
    ]);
    await dashboardSays(env, repo, json.workflow.id, 'T3', 'Verification passed');

    const next = codexHook(baton, { repo, id: '019e1625-0000-7000-8000-0000000000f1', transcript: null });
    const briefing = briefingOf((await next('SessionStart', { source: 'startup' })).stdout);
    expect(briefing).toContain(
      `[~] T3 Run focused verification (in progress, probably done: the agent's last message says "Verification passed": check)`,
    );
    expect(briefing).toContain(
      `### What to Do Next\nCheck whether task "T3: Run focused verification" is done, as the agent's last message says ("Verification passed"): if it is, mark it done in your task list and go on; if not, continue from it.`,
    );
  });

  it('a Claude Code task a Codex session finished in its own words; a plan whose steps are all done reads done', async () => {
    const { repo, baton } = hookWorkspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const claude = agentHooks(baton, { session_id: 'c1a0de00-0000-4000-8000-000000000001', cwd: repo });
    await claude('SessionStart', { source: 'startup' });
    await claude('UserPromptSubmit', { prompt: 'add retries to the http client' });
    const todo = {
      content: 'Add retries to the HTTP client',
      status: 'in_progress',
      activeForm: 'Adding retries',
    };
    await claude('PostToolUse', { tool_name: 'TodoWrite', tool_use_id: 't1', tool_input: { todos: [todo] } });
    await claude('SessionEnd', { reason: 'prompt_input_exit' });

    const a = codexConversation(repo, baton, '019e1625-0000-7000-8000-0000000000f2');
    a.turnStarts();
    await a.hook('SessionStart', { source: 'startup' });
    await a.ask('go on with the retries');
    await a.stop(
      'Plan: wrap fetch in a retry loop, then test it.\n\nAdded retries to the HTTP client: 3 attempts with exponential backoff. Tests pass.',
    );
    const b = codexConversation(repo, baton, '019e1625-0000-7000-8000-0000000000f3');
    b.start();
    const briefing = briefingOf((await b.hook('SessionStart', { source: 'startup' })).stdout);
    const said = 'Added retries to the HTTP client: 3 attempts with exponential backoff.';
    expect(briefing).toContain(
      `[~] T1 Add retries to the HTTP client (in progress, probably done: the agent's last message says "${said}": check)`,
    );
    expect(briefing).toContain(`Check whether task "T1: Add retries to the HTTP client" is done`);

    // the same session's plan, all its steps completed (read from the rollout: no PostToolUse came): done
    await b.ask('and add a changelog entry');
    b.plan('1', [
      ['Add retries to the HTTP client', 'completed'],
      ['Write the changelog entry', 'completed'],
    ]);
    await b.stop('Both are done.');
    const c = codexConversation(repo, baton, '019e1625-0000-7000-8000-0000000000f4');
    c.start();
    const after = briefingOf((await c.hook('SessionStart', { source: 'startup' })).stdout);
    expect(after).toContain('### Plan Status: 2/2 tasks done');
    expect(after).not.toContain('probably done');
  });
});
