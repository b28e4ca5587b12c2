import { appendFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexHook } from '../helpers/codex-conversation.js';
import { corpusLines } from '../helpers/corpus-lines.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';
import { claudeTool } from '../helpers/transcript-lines.js';

// One worktree, several branches: a workflow is the work of the branch it is on. A new conversation on another
// branch is other work (it gets a workflow of its own), and going back to a branch goes on with that branch's work.

type Json = Record<string, any>;

function workspace() {
  const { repo, env, baton } = hookWorkspace();
  const git = (...args: string[]) => gitIn(repo, ...args);
  const hook = async (event: string, fields: Json) => {
    const r = await baton(['hook', event], JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }));
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trim() ? (JSON.parse(r.stdout) as Json) : {};
    return {
      briefing: String(out.hookSpecificOutput?.additionalContext ?? ''),
      told: String(out.systemMessage ?? ''),
      stderr: r.stderr,
    };
  };
  return { repo, env, baton, git, hook };
}

/** A new conversation's SessionStart, its transcript still empty: what it answered, and the transcript's path. */
async function newConversation(w: ReturnType<typeof workspace>, id: string) {
  const path = join(tempDir('baton-transcript-'), `${id}.jsonl`);
  writeFileSync(path, '');
  return {
    path,
    ...(await w.hook('SessionStart', { session_id: id, source: 'startup', transcript_path: path })),
  };
}

/**
 * A conversation that asks for `request`, commits a file for it, and ends, in the repository or in another worktree
 * `cwd`. What its SessionStart answered.
 */
async function conversation(
  w: ReturnType<typeof workspace>,
  id: string,
  request: string,
  file: string,
  cwd = w.repo,
) {
  const path = join(tempDir('baton-transcript-'), `${id}.jsonl`);
  const at = () => new Date().toISOString();
  writeFileSync(
    path,
    `${JSON.stringify({ type: 'user', timestamp: at(), sessionId: id, message: { role: 'user', content: request } })}\n`,
  );
  const started = await w.hook('SessionStart', {
    cwd,
    session_id: id,
    source: 'startup',
    transcript_path: path,
  });
  await w.hook('UserPromptSubmit', { cwd, session_id: id, transcript_path: path, prompt: request });
  writeFileSync(join(cwd, file), `${request}\n`);
  gitIn(cwd, 'add', file);
  gitIn(cwd, 'commit', '-q', '-m', `${request}`);
  await w.hook('Stop', { cwd, session_id: id, transcript_path: path, stop_hook_active: false });
  await w.hook('SessionEnd', { cwd, session_id: id, transcript_path: path, reason: 'prompt_input_exit' });
  return started;
}

const workflowOf = async (w: ReturnType<typeof workspace>) => {
  const r = await w.baton(['status', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Json;
};

describe('workflows of the branches of one worktree', () => {
  it('a conversation on another branch gets a workflow of its own; back on a branch, its work goes on', async () => {
    const w = workspace();
    w.git('checkout', '-q', '-b', 'feature/login');
    await conversation(w, 'c-login', 'add a login form', 'login.js');
    const login = (await workflowOf(w)).workflow.id as string;

    // Tuesday: another branch from main, for a bug
    w.git('checkout', '-q', '-b', 'fix/crash', 'main');
    const tuesday = await conversation(
      w,
      'c-crash',
      'fix the crash when config.json is missing',
      'config.js',
    );
    expect(tuesday.briefing).not.toContain('login');
    expect(tuesday.told).toContain(`Baton left workflow ${login} ("add a login form") on feature/login`);
    expect(tuesday.told).toContain(
      'for its branch: fix/crash is checked out; it waits for a session on feature/login',
    );
    const crash = await workflowOf(w);
    expect(crash.workflow.id).not.toBe(login);
    expect(JSON.stringify(crash)).toContain('fix the crash');

    // Wednesday: back on the login branch, a new conversation goes on with the login work
    w.git('checkout', '-q', 'feature/login');
    const wednesday = await newConversation(w, 'c-wed');
    expect(wednesday.briefing).toContain('add a login form');
    expect(wednesday.briefing).not.toContain('fix the crash');
    expect(wednesday.told).toContain(`Baton left workflow ${crash.workflow.id as string}`);
    expect(wednesday.told).toContain('on fix/crash');
    // the CLI without -w means this branch's workflow, not "2 incomplete workflows"
    expect((await workflowOf(w)).workflow.id).toBe(login);
    w.git('checkout', '-q', 'fix/crash');
    expect((await workflowOf(w)).workflow.id).toBe(crash.workflow.id);

    // a branch made from the login branch carries its work: the login workflow goes on there
    w.git('checkout', '-q', '-b', 'login-v2', 'feature/login');
    const v2 = await newConversation(w, 'c-v2');
    expect(v2.told).not.toContain(`Baton left workflow ${login}`);
    expect(v2.told).toContain(`Baton left workflow ${crash.workflow.id as string}`);

    // `baton list` says which branch each workflow's work is on
    const listed = await w.baton(['list']);
    expect(listed.stdout).toMatch(new RegExp(`${crash.workflow.id as string} .* fix/crash `));
    const json = JSON.parse((await w.baton(['list', '--json'])).stdout) as { workflows: Json[] };
    expect(json.workflows.find((x) => x.id === login)?.branch).toBe('login-v2');
  });

  it('`baton status` and `baton context` say when the workflow found here has its work on another branch', async () => {
    const w = workspace();
    w.git('checkout', '-q', '-b', 'feature');
    await conversation(w, 'c-feature', 'add the login form', 'login.js');
    const feature = (await workflowOf(w)).workflow.id as string;
    w.git('checkout', '-q', 'main');
    // the one incomplete workflow here is feature's: shown, with what the next session here would do
    const said =
      'its work is on feature, and main is checked out here: an agent session started here now begins a new workflow (`git checkout feature` goes on with this one)';
    const status = await w.baton(['status']);
    expect(status.stdout).toContain(`branch: ${said}`);
    expect((await workflowOf(w)).away).toMatchObject({
      workflow_id: feature,
      branch: 'feature',
      checked_out: 'main',
    });
    expect((await w.baton(['context'])).stderr).toContain(`note: ${said}`);
    // named by its id, it is the one meant: nothing to say
    expect((await w.baton(['status', '-w', feature])).stdout).not.toContain('branch:');
    // as the next session here finds it
    expect((await newConversation(w, 'c-main')).told).toContain(`Baton left workflow ${feature}`);
    // back on feature: the workflow found here is its own branch's (main's new one waits on main)
    w.git('checkout', '-q', 'feature');
    const back = await w.baton(['status']);
    expect(back.stdout).toContain(feature);
    expect(back.stdout).not.toContain('branch:');
  });

  it('back on a branch, its workflow is taken up though the other branch holds no commit of its own', async () => {
    const w = workspace();
    w.git('branch', 'feature');
    await conversation(w, 'c-main', 'speed up the report query', 'report.sql');
    const main = (await workflowOf(w)).workflow.id as string;
    // on feature (nothing committed there yet): other work, left uncommitted when the conversation ends
    w.git('checkout', '-q', 'feature');
    const onFeature = await newConversation(w, 'c-feature');
    const path = onFeature.path;
    expect(onFeature.told).toContain(`Baton left workflow ${main}`);
    await w.hook('UserPromptSubmit', {
      session_id: 'c-feature',
      transcript_path: path,
      prompt: 'add the login form',
    });
    writeFileSync(join(w.repo, 'login.js'), 'form\n');
    await w.hook('SessionEnd', {
      session_id: 'c-feature',
      transcript_path: path,
      reason: 'prompt_input_exit',
    });
    const feature = (await workflowOf(w)).workflow.id as string;
    expect(feature).not.toBe(main);
    // back on main (the work put away): main's workflow, not the newer one of feature
    w.git('stash', '-q', '-u');
    w.git('checkout', '-q', 'main');
    const back = await newConversation(w, 'c-back');
    expect(back.briefing).toContain('speed up the report query');
    expect(back.briefing).not.toContain('login form');
    expect(back.told).toContain(`Baton left workflow ${feature} ("add the login form") on feature`);
    expect((await workflowOf(w)).workflow.id).toBe(main);
  });

  it('a branch whose work was never committed hands its workflow to no other branch made since', async () => {
    const w = workspace();
    w.git('checkout', '-q', '-b', 'feature/login');
    await conversation(w, 'c-login', 'add a login form', 'login.js');
    const login = (await workflowOf(w)).workflow.id as string;
    // a restyle on a branch of its own, left uncommitted and stashed
    w.git('checkout', '-q', '-b', 'wip/ui', 'main');
    const ui = await newConversation(w, 'c-ui');
    await w.hook('UserPromptSubmit', {
      session_id: 'c-ui',
      transcript_path: ui.path,
      prompt: 'restyle the header',
    });
    writeFileSync(join(w.repo, 'header.css'), 'h1 {}\n');
    await w.hook('SessionEnd', { session_id: 'c-ui', transcript_path: ui.path, reason: 'prompt_input_exit' });
    w.git('stash', '-q', '-u');
    // a branch made from the login branch: the login work goes on, the restyle waits on wip/ui
    w.git('checkout', '-q', '-b', 'login-v2', 'feature/login');
    const v2 = await newConversation(w, 'c-v2');
    expect(v2.briefing).toContain('add a login form');
    expect(v2.briefing).not.toContain('restyle');
    expect(v2.told).toContain('("restyle the header") on wip/ui');
    expect((await workflowOf(w)).workflow.id).toBe(login);
  });

  it('a conversation resumed in another repository goes on with its workflow, and the user is told where it is', async () => {
    const w = workspace();
    await conversation(w, 'c-login', 'add a login form', 'login.js');
    const login = (await workflowOf(w)).workflow.id as string;
    // `codex resume <id>` (or `claude --resume`) from another repository's folder
    const other = realpathSync(makeRepo());
    const resumed = await w.hook('SessionStart', {
      session_id: 'c-login',
      source: 'resume',
      cwd: other,
      transcript_path: join(tempDir('baton-transcript-'), 'c-login.jsonl'),
    });
    expect(resumed.told).toContain(
      `Baton: this conversation began in ${realpathSync(w.repo)} and goes on with its workflow there, ${login}: what it does now in ${other} is recorded there`,
    );
    // a compaction goes on in the conversation the user was told it in
    const compacted = await w.hook('SessionStart', { session_id: 'c-login', source: 'compact', cwd: other });
    expect(compacted.told).not.toContain('began in');
  });

  it('a conversation resumed on another branch keeps its workflow where its work is, and the user is told', async () => {
    const w = workspace();
    w.git('checkout', '-q', '-b', 'feature/login');
    await conversation(w, 'c-login', 'add a login form', 'login.js');
    const login = (await workflowOf(w)).workflow.id as string;
    w.git('checkout', '-q', '-b', 'fix/crash', 'main');
    await conversation(w, 'c-crash', 'fix the crash when config.json is missing', 'config.js');
    const crash = (await workflowOf(w)).workflow.id as string;

    // the login conversation reopened (`claude --resume`) while fix/crash is checked out
    const resumed = await w.hook('SessionStart', {
      session_id: 'c-login',
      source: 'resume',
      transcript_path: join(tempDir('baton-transcript-'), 'c-login.jsonl'),
    });
    expect(resumed.briefing).toContain('add a login form');
    expect(resumed.briefing).toContain('branch changed from feature/login to fix/crash');
    expect(resumed.told).toContain(
      `Baton: workflow ${login}, which this session goes on with, has its work on feature/login; fix/crash, checked out now, does not hold it (\`git checkout feature/login\` to go on with it there)`,
    );
    await w.hook('SessionEnd', { session_id: 'c-login', reason: 'prompt_input_exit' });

    // its snapshot on fix/crash did not move it there: still on feature/login, and fix/crash's work is crash's
    const json = JSON.parse((await w.baton(['list', '--json'])).stdout) as { workflows: Json[] };
    expect(json.workflows.find((x) => x.id === login)?.branch).toBe('feature/login');
    const next = await newConversation(w, 'c-next');
    expect(next.briefing).toContain('fix the crash');
    expect(next.briefing).not.toContain('add a login form');
    expect((await workflowOf(w)).workflow.id).toBe(crash);
  });

  it('a workflow whose branch was deleted is no longer left for it', async () => {
    const w = workspace();
    w.git('checkout', '-q', '-b', 'spike');
    await conversation(w, 'c-spike', 'try a websocket transport', 'ws.js');
    w.git('checkout', '-q', 'main');
    w.git('branch', '-q', '-D', 'spike');
    const next = await newConversation(w, 'c-next');
    expect(next.told).not.toContain('Baton left workflow');
  });

  it("the work of a worktree since removed goes on where its branch is checked out; another clone's does not", async () => {
    const w = workspace();
    const linked = join(tempDir('baton-linked-'), 'wt');
    w.git('worktree', 'add', '-q', linked, '-b', 'feature/logger');
    await conversation(w, 'c-wt', 'add a logger module', 'logger.js', linked);
    const inLinked = await w.baton(['list', '--json']);
    const id = (JSON.parse(inLinked.stdout) as { workflows: Json[] }).workflows[0]?.id as string;
    expect(id).toBeTruthy();
    // the user merges nothing yet: removes the worktree, keeps its branch, and goes on with it in the main checkout
    w.git('worktree', 'remove', '--force', linked);
    w.git('checkout', '-q', 'feature/logger');
    const next = await newConversation(w, 'c-main');
    expect(next.told).toContain(
      `Baton: the worktree of workflow ${id}, ${realpathSync(join(linked, '..'))}/wt, is gone and its branch is checked out here, so the workflow goes on in this worktree`,
    );
    expect(next.briefing).toContain('add a logger module');
    const here = await workflowOf(w);
    expect(here.workflow.id).toBe(id);
    expect(here.workflow.worktree).toBe(w.repo);

    // a clone of the same history deleted with its work: its commits are not this repository's, nothing is taken
    const clone = join(tempDir('baton-clone-'), 'app');
    gitIn(w.repo, 'clone', '-q', '--branch', 'main', w.repo, clone);
    gitIn(clone, 'config', 'user.email', 'test@baton.invalid');
    gitIn(clone, 'checkout', '-q', '-b', 'feature/cache');
    await conversation(w, 'c-clone', 'add a cache layer', 'cache.js', clone);
    rmSync(clone, { recursive: true, force: true });
    w.git('checkout', '-q', '-b', 'feature/cache', 'main');
    const fresh = await newConversation(w, 'c-cache');
    expect(fresh.told).not.toContain('is gone');
    expect(fresh.briefing).not.toContain('add a cache layer');
  });

  it('a conversation of a worktree since removed, resumed where its branch is checked out, goes on there', async () => {
    const w = workspace();
    const linked = join(tempDir('baton-linked-'), 'wt');
    w.git('worktree', 'add', '-q', linked, '-b', 'feature/parser');
    await conversation(w, 'c-parse', 'add a parser module', 'parser.js', linked);
    w.git('worktree', 'remove', '--force', linked);
    w.git('checkout', '-q', 'feature/parser');
    // `codex resume <id>` (or `claude --resume`) in the main checkout
    const path = join(tempDir('baton-transcript-'), 'c-parse.jsonl');
    writeFileSync(path, '');
    const resumed = await w.hook('SessionStart', {
      session_id: 'c-parse',
      source: 'resume',
      transcript_path: path,
    });
    expect(resumed.told).toContain(
      'is gone and its branch is checked out here, so the workflow goes on in this worktree',
    );
    expect(resumed.told).not.toContain('began in');
    const here = await workflowOf(w);
    expect(here.workflow.worktree).toBe(w.repo);
    expect(JSON.stringify(here)).toContain('add a parser module');
  });

  it('a conversation cut off after its agent made a new branch goes on there: the next one is briefed on its work', async () => {
    const w = workspace();
    const id = 'c-cut';
    const path = join(tempDir('baton-transcript-'), `${id}.jsonl`);
    const stamped = (lines: string[]) =>
      lines
        .map(
          (l) =>
            `${JSON.stringify({ ...JSON.parse(l), timestamp: new Date().toISOString(), sessionId: id })}\n`,
        )
        .join('');
    const request = 'fix the flaky date test';
    writeFileSync(
      path,
      stamped([JSON.stringify({ type: 'user', message: { role: 'user', content: request } })]),
    );
    await w.hook('SessionStart', { session_id: id, source: 'startup', transcript_path: path });
    await w.hook('UserPromptSubmit', { session_id: id, transcript_path: path, prompt: request });
    // its agent makes a branch for the fix, edits, and is cut off in the middle of its turn (no Stop, no SessionEnd)
    w.git('switch', '-q', '-c', 'fix/flaky-date');
    const made = "Switched to a new branch 'fix/flaky-date'";
    appendFileSync(
      path,
      stamped(claudeTool('t1', 'Bash', { command: 'git switch -c fix/flaky-date' }, made)),
    );
    writeFileSync(join(w.repo, 'date.test.js'), 'test("date", () => {});\n');

    const next = await newConversation(w, 'c-next');
    expect(next.told).not.toContain('Baton left workflow');
    expect(next.briefing).toContain(request);
    expect(next.briefing).toContain('created the branch fix/flaky-date');
  });

  it('a workflow begun on a detached HEAD goes on, unwarned, on a branch made from it (a Codex app worktree)', async () => {
    const w = workspace();
    w.git('checkout', '-q', '--detach');
    const id = 'c-detached';
    const path = join(tempDir('baton-transcript-'), `${id}.jsonl`);
    writeFileSync(path, '');
    const request = 'allow a detached HEAD in the branch guard';
    await w.hook('SessionStart', { session_id: id, source: 'startup', transcript_path: path });
    await w.hook('UserPromptSubmit', { session_id: id, transcript_path: path, prompt: request });
    // its agent makes a branch where it stands and commits there, with no word of it in its transcript
    w.git('switch', '-q', '-c', 'fix/detached-guard');
    writeFileSync(join(w.repo, 'guard.js'), 'export const guard = () => true;\n');
    w.git('add', 'guard.js');
    w.git('commit', '-q', '-m', 'fix: allow a detached HEAD');
    await w.hook('Stop', { session_id: id, transcript_path: path, stop_hook_active: false });

    // a new conversation, the first one's terminal closed
    const next = await newConversation(w, 'c-after');
    expect(next.briefing).toContain(request);
    expect(next.briefing).not.toContain('branch changed');
    expect(next.told).not.toContain('has its work on a detached HEAD');
  });

  it("a session's status names the branch its worktree moved to, not the detached HEAD it began on (a real Codex rollout: its `git switch -c` at line 116)", async () => {
    const w = workspace();
    w.git('checkout', '-q', '--detach');
    const rollout = 'codex/hk/e5/cb0813e003/0/full.jsonl';
    const id = '019f690c-8f7b-7631-86d1-935c66dbf4f4';
    const path = join(tempDir('baton-transcript-'), `rollout-2026-07-16T03-50-58-${id}.jsonl`);
    writeFileSync(path, '');
    // the rollout's lines as Codex wrote them, its folder the repository
    const write = (from: number, to: number) =>
      appendFileSync(
        path,
        `${corpusLines(rollout, ...Array.from({ length: to - from + 1 }, (_, i) => from + i))
          .map((l) => l.replaceAll('/Users/jdx/.codex/worktrees/090e/hk', w.repo))
          .join('\n')}\n`,
      );
    const hook = codexHook(w.baton, { repo: w.repo, id, transcript: path });
    const status = async () => {
      const text = (await w.baton(['session-status'])).stdout;
      const json = (await w.baton(['session-status', '--json'])).json<{ worktree_branch: string | null }>();
      return { text, branch: json.worktree_branch };
    };

    await hook('SessionStart', { source: 'startup' });
    write(1, 9);
    await hook('UserPromptSubmit', { prompt: 'investigate https://github.com/jdx/hk/discussions/1074' });
    write(10, 92);
    await hook('Stop', { stop_hook_active: false });
    // begun on a detached HEAD, said in words (git's `(detached)` in parentheses was `((detached))`)
    expect((await status()).text).toContain(`worktree: ${w.repo} (a detached HEAD)`);
    expect((await status()).branch).toBe('(detached)');

    write(93, 98);
    await hook('UserPromptSubmit', { prompt: 'make a pr and reply to discussion' });
    write(99, 115);
    // line 116: the agent makes its branch where it stands
    w.git('switch', '-q', '-c', 'codex/fix-no-commit-detached-head');
    write(116, 192);
    await hook('Stop', { stop_hook_active: false });
    const moved = await status();
    expect(moved.text).toContain(`worktree: ${w.repo} (codex/fix-no-commit-detached-head)`);
    expect(moved.branch).toBe('codex/fix-no-commit-detached-head');
  });
});
