import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { commitSummary } from '../../core/context/done-commits.js';
import { gitCommand as git, gitWord as word } from '../../core/git-commits.js';
import { gitEffects } from '../../core/git-effects.js';
import { viewedMerged } from '../../core/pull-requests.js';
import { headWatcher } from '../../core/head-listings.js';
import { sameHash } from '../../core/short-hash.js';
import { toolOutcome } from './tool-failed.js';

/** A commit the session made, as git printed it: `[branch abc1234] subject`. */
export interface Commit {
  line: number;
  at: string | null;
  hash: string;
  subject: string;
  branch: string | null;
}

export interface Effect {
  line: number;
  at: string | null;
  kind: 'commit' | 'push' | 'pr' | 'file_write' | 'other';
  tool: string;
  summary: string;
}

/** `git branch -m [old] new`: its names, never a redirection (`2>/dev/null`) nor the next command. */
const renaming = new RegExp(
  `${git('branch').source}\\s+(?:-m|-M|--move)\\s+(?!\\d*[<>])(${word})(?:\\s+(?!&&|;|\\||\\d*[<>])(${word}))?`,
);

/** Codex app directives in a final message: ::git-create-pr{... url="..."} */
const prDirective = /::git-create-pr\{[^}]*\burl="([^"]+)"/g;

/**
 * Commits, pushes, pull requests, branches and worktrees, read from the commands that made them, each call as core's
 * gitEffects reads it (as `baton run` does); what needs the calls before it is read here: a commit made again (its
 * hash already seen), the commit an amend replaced (the branch's last, a renamed branch's by its new name), a pull
 * request's address said once, and commits no command printed making that a later `git log` lists above the HEAD an
 * earlier one listed (headWatcher). A pull request this session opened or queued to merge (among these calls, or
 * `prsBefore`: the pull requests an earlier import recorded) that a later read shows merged is said merged.
 */
export function findGitEffects(
  entries: readonly TranscriptEntry[],
  prsBefore: readonly string[] = [],
): {
  commits: Commit[];
  effects: Effect[];
} {
  const commits: Commit[] = [];
  const effects: Effect[] = [];
  const seenPr = new Set<string>();
  const aboveHead = headWatcher();
  for (const e of entries) {
    if (e.sidechain) continue;
    if (e.kind === 'text' && e.role === 'assistant') {
      for (const m of e.text.matchAll(prDirective)) {
        const url = m[1];
        if (!url || seenPr.has(url)) continue;
        seenPr.add(url);
        effects.push({ line: e.line, at: e.at, kind: 'pr', tool: 'git-create-pr', summary: url });
      }
      continue;
    }
    if (e.kind !== 'tool_result') continue;
    const call = toolOutcome(e);
    const { tool } = call;
    // a branch renamed (`git branch -m [old] new`): its commits are on the new name, which a later amend names
    const renamed = renaming.exec(call.commands.join(' ; '));
    if (renamed && !call.failed) {
      const [from, to] = renamed[2] ? [renamed[1], renamed[2]] : [commits.at(-1)?.branch, renamed[1]];
      for (const c of commits) if (from && c.branch === from) c.branch = to ?? null;
    }
    const found = gitEffects(call, seenPr);
    // commits a later `git log` shows above the HEAD an earlier one showed (a script made them quietly)
    const listed = aboveHead(call).map((c) => ({ ...c, branch: null, amends: false }));
    for (const { branch, hash, subject, amends } of [...found.commits, ...listed]) {
      if (commits.some((c) => sameHash(c.hash, hash))) continue;
      // `git commit --amend` replaces the branch's last commit: the one it replaces is said, not listed as done; one
      // made before these entries (an earlier turn's, imported before) is found among the recorded ones later
      const amended = amends ? commits.findLast((c) => c.branch === branch) : undefined;
      commits.push({ line: e.line, at: e.at, hash, subject, branch });
      const summary = commitSummary(hash, subject, amended ? amended.hash : amends ? 'earlier' : undefined);
      effects.push({ line: e.line, at: e.at, kind: 'commit', tool, summary });
    }
    for (const { kind, summary } of found.effects)
      effects.push({ line: e.line, at: e.at, kind, tool, summary });
    // a pull request the session opened or queued to merge, seen merged later (`gh pr view 221 --json state`): its
    // latest state, so "enabled auto-merge of PR #221" is not left standing
    const seen = viewedMerged(call);
    const prs = [...prsBefore, ...effects.flatMap((f) => (f.kind === 'pr' ? [f.summary] : []))];
    const said = (re: RegExp) => prs.some((summary) => re.exec(summary)?.[1] === seen);
    if (
      seen &&
      !said(/^merged PR #(\d+)$/) &&
      (said(/^enabled auto-merge of PR #(\d+)$/) || said(/\/pull\/(\d+)$/))
    )
      effects.push({ line: e.line, at: e.at, kind: 'pr', tool, summary: `merged PR #${seen}` });
  }
  return { commits, effects };
}
