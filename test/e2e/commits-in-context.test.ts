import { appendFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn, tempDir } from '../helpers/git-repo.js';
import { hookWorkspace, agentHooks } from '../helpers/hook-workspace.js';

// Git is the truth for the commits made since a workflow began: a commit whose tool call never returned (Claude Code
// died before writing its result) is done all the same, and the next session must not make it again.

type Json = Record<string, any>;

function workspace() {
  const { repo, baton } = hookWorkspace();
  const hook = agentHooks(baton, { cwd: repo });
  return { repo, baton, hook };
}

/** A transcript written as Claude Code writes it, line by line. */
function transcript(sessionId: string) {
  const path = join(tempDir('baton-transcript-'), 'session.jsonl');
  writeFileSync(path, '');
  const write = (type: string, message: Json) =>
    appendFileSync(
      path,
      `${JSON.stringify({ type, timestamp: new Date().toISOString(), sessionId, message })}\n`,
    );
  let n = 0;
  return {
    path,
    ask: (text: string) => write('user', { role: 'user', content: text }),
    say: (text: string) =>
      write('assistant', { id: `m${++n}`, role: 'assistant', content: [{ type: 'text', text }] }),
    /** A Bash call; without `result` it never returned. */
    bash: (command: string, result?: string) => {
      const id = `toolu-${++n}`;
      write('assistant', {
        id: `m${n}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
      });
      if (result !== undefined)
        write('user', {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: false }],
        });
    },
    /** A TodoWrite call: the agent's task list, each item by its words and status. */
    todos: (items: [string, 'pending' | 'in_progress' | 'completed'][]) => {
      const id = `toolu-${++n}`;
      const todos = items.map(([content, status]) => ({ content, status, activeForm: content }));
      write('assistant', {
        id: `m${n}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'TodoWrite', input: { todos } }],
      });
      write('user', {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: 'Todos have been modified successfully' }],
      });
    },
  };
}

/** Makes a real commit of one file, returning git's output (`[main 1a2b3c4] subject ...`) and the full hash. */
function commit(repo: string, file: string, subject: string) {
  writeFileSync(join(repo, file), `${subject}\n`);
  gitIn(repo, 'add', file);
  const output = gitIn(repo, 'commit', '-m', subject);
  return { output, hash: gitIn(repo, 'rev-parse', 'HEAD').trim() };
}

const section = (text: string, title: string) =>
  /### [^\n]*\n(?:.*\n)*?\n/.exec(text.slice(text.indexOf(title)))?.[0] ?? '';

describe('the commits already done, read from git', () => {
  it('lists a commit a crash hid from the transcript, once, with its subject, and names HEAD by its subject', async () => {
    const { repo, baton, hook } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const one = '5a1e0000-0000-4000-8000-000000000001';
    const t = transcript(one);
    await hook('SessionStart', { session_id: one, source: 'startup', transcript_path: t.path });
    t.ask('Add mul to math.js and commit');
    await hook('UserPromptSubmit', {
      session_id: one,
      transcript_path: t.path,
      prompt: 'Add mul to math.js and commit',
    });
    t.say('mul written; committing.');
    // the commit ran; Claude Code died before the result reached its transcript
    t.bash('git add -A && git commit -m "Add mul"');
    const mul = commit(repo, 'math.js', 'Add mul');
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(t.path, past, past);

    const two = '5a1e0000-0000-4000-8000-000000000002';
    const next = await hook('SessionStart', { session_id: two, source: 'startup' });
    expect(next.code).toBe(0);
    const text = (JSON.parse(next.stdout) as { hookSpecificOutput: Json }).hookSpecificOutput
      .additionalContext as string;
    // git has the commit the cut-off call made: it landed, nothing to check
    expect(text).toContain(
      `The transcript ends before this call returned: \`Bash: git add -A && git commit -m "Add mul"\` (it landed: commit ${mul.hash.slice(0, 7)})`,
    );
    const done = section(text, '### Already Done (do not redo)');
    expect(done).toContain(`  - commit ${mul.hash.slice(0, 7)} Add mul\n`);
    // the repository's first commit was there before the workflow began: not its work
    expect(done).not.toContain('initial');
    expect(text).toContain(`- Branch main at ${mul.hash.slice(0, 7)} "Add mul", no uncommitted changes`);

    // the next session commits with its output in the transcript (7 digits): one entry each, in the order made
    const t2 = transcript(two);
    t2.ask('now add div');
    await hook('UserPromptSubmit', { session_id: two, transcript_path: t2.path, prompt: 'now add div' });
    const div = commit(repo, 'div.js', 'Add div');
    t2.bash('git add div.js && git commit -m "Add div"', div.output);
    t2.say('Committed Add div.');
    await hook('Stop', { session_id: two, transcript_path: t2.path, stop_hook_active: false });
    const after = section((await baton(['context'])).stdout, '### Already Done (do not redo)');
    expect(after.match(/^ {2}- commit .*$/gm)).toEqual([
      `  - commit ${mul.hash.slice(0, 7)} Add mul`,
      `  - commit ${div.hash.slice(0, 7)} Add div`,
    ]);

    // amended by hand after a checkpoint: nothing else happened, but HEAD moved, so the context is made afresh; the
    // commit the transcript reported is not claimed as on the branch, the one that replaced it is listed
    expect((await baton(['checkpoint', '--name', 'before-amend'])).code).toBe(0);
    // with a change of its own: an amend of nothing in the same second as the commit would be the same commit
    appendFileSync(join(repo, 'div.js'), '// amended\n');
    gitIn(repo, 'commit', '-q', '-a', '--amend', '-m', 'Add div');
    const amended = gitIn(repo, 'rev-parse', 'HEAD').trim();
    const now = (await baton(['context'])).stdout;
    expect(section(now, '### Already Done (do not redo)').match(/^ {2}- commit .*$/gm)).toEqual([
      `  - commit ${mul.hash.slice(0, 7)} Add mul`,
      `  - commit ${div.hash.slice(0, 7)} Add div (replaced by ${amended.slice(0, 7)})`,
      `  - commit ${amended.slice(0, 7)} Add div`,
    ]);
    expect(now).toContain(`- Branch main at ${amended.slice(0, 7)} "Add div"`);
  });

  it('does not ask to check a cut-off call git shows landed; a call that did not land is still to check', async () => {
    for (const lands of [true, false]) {
      const { repo, baton, hook } = workspace();
      expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
      const one = `5a1e0000-0000-4000-8000-00000000004${lands ? 1 : 2}`;
      const t = transcript(one);
      await hook('SessionStart', { session_id: one, source: 'startup', transcript_path: t.path });
      t.ask('Add mul to math.js and commit');
      await hook('UserPromptSubmit', {
        session_id: one,
        transcript_path: t.path,
        prompt: 'Add mul to math.js and commit',
      });
      t.todos([['Write mul', 'completed']]);
      t.say('mul written; committing.');
      // Claude Code died before the commit's result reached its transcript; git has it, or it never ran
      t.bash('git add -A && git commit -m "Add mul"');
      if (lands) commit(repo, 'math.js', 'Add mul');
      const past = new Date(Date.now() - 5 * 60_000);
      utimesSync(t.path, past, past);

      const next = await hook('SessionStart', {
        session_id: `${one.slice(0, -2)}5${lands ? 1 : 2}`,
        source: 'startup',
      });
      const text = (JSON.parse(next.stdout) as { hookSpecificOutput: Json }).hookSpecificOutput
        .additionalContext as string;
      const todo = section(text, '### What to Do Next');
      expect(todo).toContain(
        "Every task is done, but the session ended in the middle of the agent's turn: finish what the Last State says it was doing",
      );
      if (lands) expect(todo).not.toContain('check whether');
      else expect(todo).toContain('(check whether its last call ran)');
    }
  });

  it('names the commit made since the task in progress started, which the agent never marked done', async () => {
    const { repo, baton, hook } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const one = '5a1e0000-0000-4000-8000-000000000031';
    const t = transcript(one);
    await hook('SessionStart', { session_id: one, source: 'startup', transcript_path: t.path });
    t.ask('Add divide to math.js, test it and commit');
    await hook('UserPromptSubmit', {
      session_id: one,
      transcript_path: t.path,
      prompt: 'Add divide to math.js, test it and commit',
    });
    t.todos([
      ['Write divide', 'in_progress'],
      ['Commit divide', 'pending'],
    ]);
    await new Promise((r) => setTimeout(r, 20));
    t.todos([
      ['Write divide', 'completed'],
      ['Commit divide', 'in_progress'],
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const divide = commit(repo, 'math.js', 'divide');
    t.bash('git add math.js && git commit -m divide', divide.output);
    await hook('Stop', { session_id: one, transcript_path: t.path, stop_hook_active: false });
    await hook('SessionEnd', { session_id: one, transcript_path: t.path, reason: 'other' });

    // the next conversation goes on with the task left in progress, told of the commit made since it started
    const two = '5a1e0000-0000-4000-8000-000000000032';
    const next = await hook('SessionStart', { session_id: two, source: 'startup' });
    const text = (JSON.parse(next.stdout) as { hookSpecificOutput: Json }).hookSpecificOutput
      .additionalContext as string;
    expect(text).toContain('  [~] T2 Commit divide (in_progress)');
    expect(section(text, '### What to Do Next')).toContain(
      `Continue from task "T2: Commit divide" (a commit was made since it started: ${divide.hash.slice(0, 7)} divide; check whether it is done).`,
    );
  });

  it('hands a session the commit made by hand since the last snapshot, though nothing else happened', async () => {
    const { repo, baton, hook } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const one = '5a1e0000-0000-4000-8000-000000000011';
    const t = transcript(one);
    await hook('SessionStart', { session_id: one, source: 'startup', transcript_path: t.path });
    t.ask('write the notes');
    await hook('UserPromptSubmit', { session_id: one, transcript_path: t.path, prompt: 'write the notes' });
    t.say('Notes written.');
    await hook('Stop', { session_id: one, transcript_path: t.path, stop_hook_active: false });
    // a compaction hands the same session a context from a snapshot taken now
    const first = await hook('SessionStart', { session_id: one, source: 'compact', transcript_path: t.path });
    expect(first.code).toBe(0);
    // the user commits in a terminal; the next hand-over's snapshot would be fresh but for HEAD
    const notes = commit(repo, 'NOTES.md', 'Add the notes');
    const again = await hook('SessionStart', { session_id: one, source: 'compact', transcript_path: t.path });
    const text = (JSON.parse(again.stdout) as { hookSpecificOutput: Json }).hookSpecificOutput
      .additionalContext as string;
    expect(section(text, '### Already Done (do not redo)')).toContain(
      `  - commit ${notes.hash.slice(0, 7)} Add the notes\n`,
    );
    expect(text).toContain(`at ${notes.hash.slice(0, 7)} "Add the notes"`);
  });

  it("warns of a branch checked out since the last snapshot, and lists no other worktree's commit as done", async () => {
    const { repo, baton, hook } = workspace();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const feature = join(tempDir('baton-wt-'), 'feature');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'feature', feature);
    const one = '5a1e0000-0000-4000-8000-000000000021';
    const t = transcript(one);
    await hook('SessionStart', { session_id: one, source: 'startup', transcript_path: t.path });
    t.ask('Add mul to math.js and commit');
    await hook('UserPromptSubmit', {
      session_id: one,
      transcript_path: t.path,
      prompt: 'Add mul to math.js and commit',
    });
    const mul = commit(repo, 'math.js', 'Add mul');
    t.bash('git add math.js && git commit -m "Add mul"', mul.output);
    t.say('Committed Add mul.');
    // the commit is work: the Stop's checkpoint snapshot sees the branch main
    await hook('Stop', { session_id: one, transcript_path: t.path, stop_hook_active: false });
    const past = new Date(Date.now() - 5 * 60_000);
    utimesSync(t.path, past, past);
    // the other worktree's conversation commits on a branch hotfix, then goes back to its own branch
    gitIn(feature, 'checkout', '-q', '-b', 'hotfix', 'HEAD');
    const rename = commit(feature, 'math.js', 'Rename add');
    gitIn(feature, 'checkout', '-q', 'feature');
    // here, the user checks hotfix out and resumes the conversation (a new one would be other work: it would get a
    // workflow of its own, see branch-workflows.test.ts)
    gitIn(repo, 'checkout', '-q', 'hotfix');
    const next = await hook('SessionStart', { session_id: one, source: 'resume', transcript_path: t.path });
    const text = (JSON.parse(next.stdout) as { hookSpecificOutput: Json }).hookSpecificOutput
      .additionalContext as string;
    expect(section(text, '### Warnings')).toMatch(
      /^- branch changed from main to hotfix since the snapshot of \S+: work done on main is not on hotfix unless merged; check which branch the work goes on$/m,
    );
    const done = section(text, '### Already Done (do not redo)');
    expect(done.match(/^ {2}- commit .*$/gm)).toEqual([
      `  - commit ${mul.hash.slice(0, 7)} Add mul (not on hotfix now: only on branch main)`,
    ]);
    expect(done).not.toContain('Rename add');
    expect(text).toContain(`- Branch hotfix at ${rename.hash.slice(0, 7)} "Rename add"`);
    // said while hotfix does not hold the work: a snapshot taken there (the conversation's end takes a checkpoint on
    // hotfix) leaves the workflow on main, its work's branch; back on main, nothing to warn of
    expect((await baton(['context'])).stdout).toContain('branch changed from main to hotfix');
    const end = await hook('SessionEnd', { session_id: one, transcript_path: t.path, reason: 'other' });
    expect(end.stderr).toMatch(/checkpoint cp-\d+-session-end/);
    expect((await baton(['context'])).stdout).toContain('branch changed from main to hotfix');
    gitIn(repo, 'checkout', '-q', 'main');
    expect((await baton(['context'])).stdout).not.toContain('branch changed');
  });

  it('says no branch changed when the branch was renamed: the work is on it under its new name', async () => {
    const { repo, baton } = workspace();
    expect((await baton(['create', '--title', 'readmes', '--task', 'T1:Write them'])).code).toBe(0);
    const made = commit(repo, 'README.md', 'Add the readme');
    expect((await baton(['checkpoint', '--name', 'readme'])).code).toBe(0);
    const branch = gitIn(repo, 'branch', '--show-current').trim();
    gitIn(repo, 'branch', '-m', branch, 'ent-95-readmes');
    const context = (await baton(['context'])).stdout;
    expect(context).not.toContain('branch changed');
    expect(context).toContain(`commit ${made.hash.slice(0, 7)} Add the readme`);
  });

  it("keeps a finished workflow's commits to its own: what came after is another's work", async () => {
    const { repo, baton } = workspace();
    const id = (await baton(['create', '--title', 'Notes', '--task', 'T1:Write the notes', '--json'])).json<{
      workflow: { id: string };
    }>().workflow.id;
    await baton(['task', 'start', 'T1']);
    const notes = commit(repo, 'NOTES.md', 'Add the notes');
    expect((await baton(['task', 'done', 'T1'])).code).toBe(0);
    expect((await baton(['status', '-w', id, '--json'])).json<Json>().workflow.status).toBe('completed');
    const later = commit(repo, 'LATER.md', 'Later work');
    const text = (await baton(['context', '-w', id])).stdout;
    expect(section(text, '### Already Done (do not redo)')).toContain(
      `  - commit ${notes.hash.slice(0, 7)} Add the notes\n`,
    );
    expect(text).not.toContain('Later work');
    expect(text).not.toContain(later.hash.slice(0, 7));
  });
});
