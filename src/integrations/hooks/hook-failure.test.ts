import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/helpers/corpus.js';
import { readFirstLines } from '../transcripts/read-new-bytes.js';
import { checkFormat } from '../transcripts/transcript-import.js';
import { openFailure } from '../../storage/sqlite/open-failure.js';
import { hookFailureClears, hookFailureKind, hookFailureStep, type HookLines } from './hook-failure.js';
import type { HookRecord } from './hook-log.js';
import { parsePayload } from './hook-payload.js';

/** A failed hook as the hook log keeps it. */
const failed = (note: string, agent = 'claude-code'): HookRecord => ({
  at: '2026-05-11T11:00:00.000Z',
  agent,
  event: 'Stop',
  outcome: 'failed',
  note,
  ms: 12,
});

/** The error a hook's input gets from the parser itself, so a change of its words cannot go unseen here. */
const inputError = (stdin: string) => {
  const r = parsePayload(stdin, '/work/here');
  if (r.ok) throw new Error(`${stdin} parsed`);
  return r.error;
};

/** The note of a Stop whose transcript the import refused, with the refusal the import itself makes. */
const refused = async (path: string, agent: 'claude-code' | 'codex' = 'claude-code') => {
  try {
    checkFormat(await readFirstLines(path, 64 << 10), agent, path);
  } catch (e) {
    return `transcript not imported: ${(e as Error).message}; no checkpoint: no work since the last checkpoint`;
  }
  throw new Error(`${path} was taken as a ${agent} transcript`);
};

const dir = () => mkdtempSync(join(tmpdir(), 'baton-hook-failure-'));

const lines: HookLines = {
  files: [{ path: '/repo/.claude/settings.local.json', rewrite: 'baton init' }],
  plugins: [],
};

describe('the next step of a failed hook', () => {
  it('for input that is no JSON object, or none: the hook line may be edited, with the command that writes it again', () => {
    for (const stdin of ['[1,2]', '{"session_id":"x","hook_event_name":"Stop",', '', '  \n', '"text"']) {
      const r = failed(inputError(stdin));
      expect(hookFailureKind(r), stdin).toBe('input');
      expect(hookFailureStep('Stop', r, lines)).toBe(
        "the agent sent no valid hook input: if you did not run the hook by hand, the hook command in /repo/.claude/settings.local.json may have been edited; run `baton init` again to rewrite it, and check your agent's version",
      );
    }
    // where doctor did not read the hook lines (or none are wired now): said in general words, and where to look
    expect(hookFailureStep('Stop', failed('no hook input on stdin'))).toBe(
      "the agent sent no valid hook input: if you did not run the hook by hand, the hook command in your agent's settings may have been edited; run `baton init --agent claude-code` again to rewrite it, and check your agent's version (`baton doctor` lists the hooks installed)",
    );
    // Codex's lines, at the scope they were written: the init that writes them
    expect(
      hookFailureStep('Stop', failed('hook input is not a JSON object', 'codex'), {
        files: [{ path: '/home/a/.codex/hooks.json', rewrite: 'baton init --user --agent codex' }],
        plugins: [],
      }),
    ).toContain(
      'the hook command in /home/a/.codex/hooks.json may have been edited; run `baton init --user --agent codex` again to rewrite it',
    );
    expect(hookFailureStep('Stop', failed('no hook input on stdin', 'codex'))).toContain(
      'run `baton init --agent codex` again',
    );
    // the plugin's hooks are not init's to write
    expect(
      hookFailureStep('Stop', failed('no hook input on stdin'), {
        files: [],
        plugins: ['baton@baton (/repo/.claude/settings.json)'],
      }),
    ).toContain(
      'the hook command of the plugin baton@baton (/repo/.claude/settings.json) may have been edited; reinstall the plugin (`/plugin` in Claude Code)',
    );
  });

  it('for an agent the hook line names that Baton does not know: the line, and how to write it again', () => {
    const r = failed(
      'unknown agent "gemini" (--agent takes claude-code or codex; `baton init` writes the hook lines)',
    );
    expect(hookFailureKind(r)).toBe('agent');
    expect(hookFailureStep('Stop', r, lines)).toBe(
      'if you did not run the hook by hand, the hook command in /repo/.claude/settings.local.json names an agent Baton does not know: run `baton init` again to rewrite it',
    );
  });

  it('for a transcript that is no transcript at all (a README, a folder): what it is not, and what to check', async () => {
    const d = dir();
    writeFileSync(join(d, 'README.md'), '# A project\n\nSome words.\n');
    // notes with a few transcript-like lines among many others
    const claude = readFileSync(corpusPath('claude-code/spotter/short.jsonl'), 'utf8').split('\n')[0];
    writeFileSync(join(d, 'notes.md'), `${claude}\n${'a line of notes\n'.repeat(8)}`);
    for (const note of [
      await refused(join(d, 'README.md')),
      await refused(join(d, 'README.md'), 'codex'),
      await refused(join(d, 'notes.md')),
      await refused(d),
    ]) {
      const r = failed(note);
      expect(hookFailureKind(r), note).toBe('not-transcript');
      expect(hookFailureStep('Stop', r)).toBe(
        "the file the agent named as its transcript is neither a Claude Code nor a Codex transcript: if you did not run the hook by hand, Claude Code may write a kind this Baton does not know: check its version, and update Baton from a clone of Baton's repository with `npm ci && npm link` (it is not on the npm registry yet; docs/install.md); `baton import <file>` imports a transcript by hand and says which agent wrote it",
      );
    }
  });

  it("adds nothing where the note says it: a transcript gone, another agent's (with its import command)", async () => {
    const d = dir();
    const rollout = corpusPath(
      'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    );
    const other = await refused(rollout);
    expect(other).toContain(
      `is a Codex rollout, not a Claude Code transcript: import it with \`baton import codex ${rollout}\``,
    );
    const gone = await refused(join(d, 'gone.jsonl'));
    expect(gone).toContain('no such file; check the path');
    for (const note of [
      other,
      gone,
      `transcript not imported: cannot read the transcript ${d}/x.jsonl: permission denied; run as the user who owns it, or make it readable`,
    ]) {
      expect(hookFailureKind(failed(note)), note).toBe('transcript-hinted');
      expect(hookFailureStep('Stop', failed(note))).toBeNull();
    }
    // a file that cannot be read for another reason says nothing of what to do: this says it
    expect(
      hookFailureStep(
        'Stop',
        failed(`transcript not imported: cannot read the transcript ${d}/x.jsonl: ELOOP`),
      ),
    ).toBe(
      'the agent named as its transcript a file Baton cannot read: check that it is there and that you can read it',
    );
  });

  it("for a store the hook could not open, that doctor opens: the agent's hooks run with other settings", () => {
    for (const note of [
      "cannot open the SQLite database /proc/nope/baton.db: ENOENT: no such file or directory, mkdir '/proc/nope'",
      "cannot reach the Baton server at http://127.0.0.1:1 (bad port); start it with `baton serve` where it runs, or use the server's database directly (BATON_DATABASE_URL or --database instead of BATON_URL / --server); unsetting BATON_URL alone works on this machine's own database, a log the server never sees unless it ran here on that same database",
    ]) {
      expect(hookFailureKind(failed(note))).toBe('store');
      expect(hookFailureStep('SessionStart', failed(note))).toBe(
        "the hook could not open Baton's store: if `baton doctor` opens it (no problem above says otherwise), Claude Code starts its hooks with other settings than this shell: give them the same (BATON_HOME, BATON_DATABASE_URL or BATON_URL in its environment, --home, --database or --server on the hook line)",
      );
    }
  });

  it('adds nothing to a store that could not be opened for a cause the note names with its fix', () => {
    // the store's own words for it (open-failure.ts), so a change of them cannot go unseen here
    const locked = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const readOnly = Object.assign(new Error('attempt to write a readonly database'), {
      code: 'SQLITE_READONLY',
    });
    const damaged = Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
    for (const e of [locked, readOnly, damaged]) {
      const note = openFailure('/home/u/.baton/baton.db', e).message;
      expect(hookFailureKind(failed(note)), note).toBe('store-hinted');
      expect(hookFailureStep('UserPromptSubmit', failed(note))).toBeNull();
    }
  });

  it('for a hook that ran out of time, or failed on anything else: what to check, unless the error names its fix', () => {
    const late: HookRecord = {
      ...failed('no answer within 25 s; what it did so far is kept'),
      outcome: 'timeout',
    };
    expect(hookFailureKind(late)).toBe('timeout');
    expect(hookFailureStep('Stop', late)).toMatch(
      /run out of time: if it happens again, check that `baton list` answers quickly here$/,
    );
    // Claude Code's short SessionEnd budget: more time, and how
    const plugin: HookRecord = {
      ...failed(
        "no answer within 1.2 s (Claude Code gives SessionEnd hooks 1.5 s, and a plugin's timeout does not raise it); what it did so far is kept",
      ),
      outcome: 'timeout',
    };
    expect(hookFailureStep('SessionEnd', plugin)).toMatch(
      /^give SessionEnd hooks more time: set CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS=30000 in the environment Claude Code starts from /,
    );
    // a budget set by hand ran out: it is the variable to change
    const set: HookRecord = {
      ...failed('no answer within 1 s (BATON_HOOK_BUDGET is 1s); what it did so far is kept'),
      outcome: 'timeout',
    };
    expect(hookFailureStep('Stop', set)).toMatch(/^BATON_HOOK_BUDGET, .*: unset it .* or make it longer$/);
    expect(hookFailureStep('Stop', failed('SQLITE_BUSY: database is locked'))).toMatch(
      /^another process kept Baton's SQLite database locked longer than the hook waits .*: end that transaction or close it; the next hook reads what this one missed from the transcript$/,
    );
    expect(hookFailureStep('Stop', failed('ECONNRESET'))).toBe(
      'the next Stop hook tries again; if it fails the same way, check that `baton list` works here, and report the message with the version `baton --version` prints',
    );
    expect(
      hookFailureStep(
        'Stop',
        failed('the workflow was written by a newer Baton: update it (`npm install -g agent-baton`)'),
      ),
    ).toBeNull();
  });
});

describe('when doctor stops reporting a failed hook', () => {
  it('is when the next hook of the same event ends otherwise (the hook log keeps the last result of each event)', () => {
    expect(hookFailureClears('Stop', 'failed')).toBe(
      'This problem clears when the next Stop hook here runs without failing',
    );
    expect(hookFailureClears('PreCompact', 'timeout')).toBe(
      'This problem clears when the next PreCompact hook here ends in time',
    );
    // a hook that named no event is kept as `unknown`: only another such hook replaces it
    expect(hookFailureClears('unknown', 'failed')).toBe(
      "This problem clears when a `baton hook` that names no event next runs without failing (Baton's hook lines all name theirs)",
    );
  });

  it("is that agent's next hook of the event: Claude Code and Codex in one repository each keep their own", () => {
    expect(hookFailureClears('Stop', 'failed', 'codex')).toBe(
      'This problem clears when the next Codex Stop hook here runs without failing',
    );
    expect(hookFailureClears('unknown', 'timeout', 'claude-code')).toBe(
      "This problem clears when a Claude Code `baton hook` that names no event next ends in time (Baton's hook lines all name theirs)",
    );
  });
});
