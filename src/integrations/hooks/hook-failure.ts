import { agentLabel } from '../../core/agent-label.js';
import { INSTALL_STEPS } from '../../config/package-info.js';
import { initCommand } from '../init/agent-files.js';
import type { HookRecord } from './hook-log.js';

/**
 * Where an agent's Baton hook lines are, as `baton doctor` read them: the files that hold them and the command that
 * writes each again, or the plugin that brings them. Without it, a next step names them in general words.
 */
export interface HookLines {
  files: { path: string; rewrite: string }[];
  plugins: string[];
}

/**
 * What went wrong in a failed hook, read from its note (what the hook log keeps, also from a Baton before this one):
 * the agent's input (none, unreadable, not JSON, not an object), an agent the hook line names that Baton does not know,
 * the file the agent named as its transcript (gone or unreadable, which the note's own hint covers, another agent's,
 * which the note names with its import command, or no transcript at all), Baton's store (not opened, with the cause's
 * own fix when the note says one, or kept locked by another process), the time it had, or anything else.
 */
export type HookFailureKind =
  | 'input'
  | 'agent'
  | 'transcript-hinted'
  | 'transcript-unreadable'
  | 'not-transcript'
  | 'store'
  | 'store-hinted'
  | 'store-busy'
  | 'timeout'
  | 'other';

export function hookFailureKind(r: Pick<HookRecord, 'outcome' | 'note'>): HookFailureKind {
  if (r.outcome === 'timeout') return 'timeout';
  const note = r.note;
  if (/^(no|cannot read the) hook input on stdin|^hook input is not (JSON|a JSON object)/.test(note))
    return 'input';
  if (/^unknown agent "/.test(note)) return 'agent';
  const transcript = /transcript not imported: (.*)$/.exec(note)?.[1];
  if (transcript !== undefined) {
    // read-new-bytes.ts: a missing file says to check the path, a forbidden one whom to run as; transcript-import.ts:
    // another agent's transcript says what it is and which `baton import` reads it
    if (
      /^cannot read the transcript .*: (no such file; check the path|permission denied; run as)/.test(
        transcript,
      ) ||
      /^\S.* is .*, not a .* transcript: import it with `baton import /.test(transcript)
    )
      return 'transcript-hinted';
    if (/^cannot read the transcript /.test(transcript)) return 'transcript-unreadable';
    if (
      / is not a file: | is not a transcript: | is not a .* transcript: none of its first lines /.test(
        transcript,
      )
    )
      return 'not-transcript';
    return 'other';
  }
  const store = /^cannot open the SQLite database |^cannot reach the Baton server /.test(note);
  // open-failure.ts: a database this process may not write, one another process kept locked, a damaged file
  if (
    store &&
    /: (this process may not write to|another process kept it locked|the file is damaged) /.test(note)
  )
    return 'store-hinted';
  if (store) return 'store';
  if (/\bSQLITE_BUSY\b|\bdatabase is locked\b/.test(note)) return 'store-busy';
  return 'other';
}

/** The hook command, named where `baton doctor` found it, else in general words; and how to write it again. */
function hookCommand(agent: string, lines: HookLines | null): { where: string; rewrite: string } {
  const files = lines?.files ?? [];
  if (files.length)
    return {
      where: `the hook command in ${files.map((f) => f.path).join(' or ')}`,
      rewrite: `run ${[...new Set(files.map((f) => `\`${f.rewrite}\``))].join(' or ')} again to rewrite it`,
    };
  if (lines?.plugins.length)
    return {
      where: `the hook command of the plugin ${lines.plugins.join(' or ')}`,
      rewrite: 'reinstall the plugin (`/plugin` in Claude Code)',
    };
  return {
    where: "the hook command in your agent's settings",
    rewrite: `run \`${initCommand('local', agent === 'codex' ? 'codex' : 'claude-code')}\` again to rewrite it`,
  };
}

/**
 * What to do about a failed or timed-out hook, fitting what went wrong (a sentence's words, not capitalised); null
 * when the note already says it (a missing or forbidden transcript, another agent's transcript, an error that names
 * its fix). `lines` are the agent's hook lines as `baton doctor` found them (then named), null where they were not
 * read. One place for it, so that whatever says what to do about a failed hook says the same.
 */
export function hookFailureStep(
  event: string,
  r: Pick<HookRecord, 'outcome' | 'note' | 'agent'>,
  lines: HookLines | null = null,
): string | null {
  const agent = agentLabel(r.agent);
  const cmd = hookCommand(r.agent, lines);
  switch (hookFailureKind(r)) {
    case 'input':
      return `the agent sent no valid hook input: if you did not run the hook by hand, ${cmd.where} may have been edited; ${cmd.rewrite}, and check your agent's version${lines ? '' : ' (`baton doctor` lists the hooks installed)'}`;
    case 'agent':
      return `if you did not run the hook by hand, ${cmd.where} names an agent Baton does not know: ${cmd.rewrite}`;
    case 'transcript-hinted':
      return null;
    case 'transcript-unreadable':
      return `the agent named as its transcript a file Baton cannot read: check that it is there and that you can read it`;
    case 'not-transcript':
      return `the file the agent named as its transcript is neither a Claude Code nor a Codex transcript: if you did not run the hook by hand, ${agent} may write a kind this Baton does not know: check its version, and update Baton ${INSTALL_STEPS}; \`baton import <file>\` imports a transcript by hand and says which agent wrote it`;
    case 'store-hinted':
      return null;
    case 'store-busy':
      return `another process kept Baton's SQLite database locked longer than the hook waits (a \`sqlite3\` shell or another program with a transaction open on it, a long \`baton rebuild\`): end that transaction or close it; the next hook reads what this one missed from the transcript`;
    case 'store':
      return `the hook could not open Baton's store: if \`baton doctor\` opens it (no problem above says otherwise), ${agent} starts its hooks with other settings than this shell: give them the same (BATON_HOME, BATON_DATABASE_URL or BATON_URL in its environment, --home, --database or --server on the hook line)`;
    case 'timeout':
      // a budget set by hand (hookBudget): it is what ran out
      if (/BATON_HOOK_BUDGET/.test(r.note))
        return 'BATON_HOOK_BUDGET, in the environment the agent starts its hooks with, gave the hook that time: unset it (each hook then works for its timeout less a reserve) or make it longer';
      // Claude Code's short SessionEnd budget (hookBudget): more time is the fix
      if (/CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS|Claude Code gives SessionEnd hooks/.test(r.note))
        return "give SessionEnd hooks more time: set CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS=30000 in the environment Claude Code starts from (or wire Baton with `baton init` in place of the plugin: its hooks' timeouts raise the budget); a session end that did not finish is taken up by the next session start";
      return `a store slow to answer (a Baton server far away, a database on a busy disk) or a long transcript to import makes a hook run out of time: if it happens again, check that \`baton list\` answers quickly here`;
    case 'other':
      // an error that names its fix (a command to run) needs no other
      return /`[^`]+`/.test(r.note)
        ? null
        : `the next ${event} hook tries again; if it fails the same way, check that \`baton list\` works here, and report the message with the version \`baton --version\` prints`;
  }
}

/**
 * When `baton doctor` stops reporting the failure, as a sentence: the hook log keeps the last result of each agent's
 * event (a hook that names no event as `unknown`), so the next hook of the same agent and event in this worktree that
 * ends another way (done, nothing to do, or not for Baton) replaces it; another agent's does not.
 */
export function hookFailureClears(event: string, outcome: HookRecord['outcome'], agent?: string): string {
  const ends = outcome === 'timeout' ? 'ends in time' : 'runs without failing';
  const whose = agent ? `${agentLabel(agent)} ` : '';
  return event === 'unknown'
    ? `This problem clears when a ${whose}\`baton hook\` that names no event next ${ends} (Baton's hook lines all name theirs)`
    : `This problem clears when the next ${whose}${event} hook here ${ends}`;
}
