import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { shellCommands } from '../rules/shell-command.js';
import { toolFailed } from './tool-failed.js';
import { commitSummary } from '../../core/context/done-commits.js';
import {
  amending,
  committing,
  gitCommand as git,
  gitWord as word,
  printedCommits,
} from '../../core/git-commits.js';

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

const pushing = git('push');
/** `git branch -m [old] new`: its names, never a redirection (`2>/dev/null`) nor the next command. */
const renaming = new RegExp(
  `${git('branch').source}\\s+(?:-m|-M|--move)\\s+(?!\\d*[<>])(${word})(?:\\s+(?!&&|;|\\||\\d*[<>])(${word}))?`,
);
/** A pull request's address on GitHub (any host: GitHub Enterprise too) or a GitLab merge request's. */
const prUrl =
  /https?:\/\/[\w.-]+(?::\d+)?\/[\w.-]+(?:\/[\w.-]+)+?\/(?:pull|-\/merge_requests)\/\d+(?![\w/])/g;
/**
 * The ref a push updated, as git reports it: `main -> main` after `* [new branch]` or `[new tag]`, or after the range
 * it moved (`a1..b2`; `+ a1...b2` forced), whose ends are kept.
 */
const pushedRef =
  /^[ \t]*(?:\*[ \t]*\[new branch\]|(\+[ \t]*)?([0-9a-f]{7,40})\.{2,3}([0-9a-f]{7,40})|\[new tag\])\s+(\S+)\s+->\s+(\S+)/m;
const pushRejected = /\[rejected\]|\berror: failed to push|^fatal:/m;
/** `git checkout -b name`, `git switch -c name` (`-B`, `-C`, `--create`, `--force-create`): the branch it makes. */
const newBranch = new RegExp(
  `${git('(?:checkout|switch)').source}[^;&|\\n]*?\\s(?:-[bBcC]|--(?:force-)?create)\\s+(${word})`,
  'g',
);
/** `git worktree add [options] <path> [<commit-ish>]`: its words. */
const worktreeAdd = new RegExp(`${git('worktree').source}\\s+add\\s+([^;&|\\n]*)`, 'g');
/** A word as git gets it: its quotes taken off. */
const bare = (w: string) => w.replace(/^(["'])(.*)\1$/, '$2');

/**
 * What a `git worktree add` made: the folder, and the branch it made there (`-b`, `-B`, `--orphan`) or checked out.
 * Options with a value of their own (`--reason`) do not name the folder.
 */
function worktreeMade(args: string): string | null {
  const words = (args.match(new RegExp(word, 'g')) ?? []).map(bare);
  let branch: string | null = null;
  const rest: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i] as string;
    if (w === '-b' || w === '-B' || w === '--orphan') branch = words[(i += 1)] ?? null;
    else if (w === '--reason') i += 1;
    else if (!w.startsWith('-') && !/^\d*[<>]/.test(w)) rest.push(w);
  }
  const [path, commitish] = rest;
  if (!path) return null;
  const on = branch ? ` on the new branch ${branch}` : commitish ? ` at ${commitish}` : '';
  return `added the worktree ${path}${on}`;
}

/** `git worktree remove [--force] <path>`: the worktree it removes. */
const worktreeRemove = new RegExp(
  `${git('worktree').source}\\s+remove\\s+(?:(?:-f|--force)\\s+)*(?!\\d*[<>])(${word})`,
  'g',
);
/** `git branch -d|-D|--delete <name>...`: the local branches it deletes. */
const branchDelete = new RegExp(
  `${git('branch').source}\\s+(?:-d|-D|--delete)(?:\\s+(?:-f|--force))?((?:\\s+(?!\\d*[<>]|&&|;|\\|)${word})+)`,
  'g',
);

/** Branches and worktrees a command made or removed, as Already Done says them (the last word on each is its state). */
function branchesMade(command: string): string[] {
  return [
    ...[...command.matchAll(newBranch)].map((m) => `created the branch ${bare(m[1] ?? '')}`),
    ...[...command.matchAll(worktreeAdd)].flatMap((m) => worktreeMade(m[1] ?? '') ?? []),
    ...[...command.matchAll(worktreeRemove)].map((m) => `removed the worktree ${bare(m[1] ?? '')}`),
    ...[...command.matchAll(branchDelete)].flatMap((m) =>
      (m[1] ?? '')
        .trim()
        .split(/\s+/)
        .map((b) => `deleted the branch ${bare(b)}`),
    ),
  ];
}

/** Codex app directives in a final message: ::git-create-pr{... url="..."} */
const prDirective = /::git-create-pr\{[^}]*\burl="([^"]+)"/g;

/** `git push --dry-run` / `-n`: says what would be pushed, pushes nothing. */
const dryRun = new RegExp(`${pushing.source}[^;&|\\n]*\\s(?:--dry-run|-n)\\b`);

/**
 * What `gh pr merge` did: gh says it (`✓ Squashed and merged pull request o/r#7 (title)`, `✓ Pull request o/r#8 will
 * be automatically merged via squash when all requirements are met`) when it writes to a terminal; otherwise the
 * arguments say which pull request (a number, its address, none for the current branch's) and whether `--auto`
 * only queued the merge.
 */
function mergeSummary(args: string, output: string): string {
  const number =
    /pull request [\w./-]*#(\d+)/i.exec(output)?.[1] ??
    /\/pull\/(\d+)/.exec(args)?.[1] ??
    /(?:^|\s)#?(\d+)(?=\s|$)/.exec(args)?.[1];
  const pr = number ? `PR #${number}` : "the current branch's pull request";
  const done = /\b(?:Merged|Squashed and merged|Rebased and merged) pull request\b/.test(output);
  const queued = /will be (?:automatically merged|added to the merge queue)/i.test(output);
  if (!done && (queued || /(?:^|\s)--auto\b/.test(args))) return `enabled auto-merge of ${pr}`;
  return `merged ${pr}`;
}

/**
 * The first line of the message a `git commit` command gives it: `-m "..."`, `-m '...'`, or a heredoc (`-F - <<'EOF'`,
 * `-m "$(cat <<'EOF'`). Null for a message from an editor or a file.
 */
function commitSubject(command: string): string | null {
  const inline = /\bgit\s+commit\b[^\n]*?\s-m\s*(?:"([^"$`\\]+)"|'([^']+)')/.exec(command);
  const heredoc =
    /\bgit\s+commit\b[^\n]*?\s(?:-F\s*-|--file[= ]-|-m\s*"\$\(cat)[^\n]*<<-?\s*['"]?\w+['"]?[^\n]*\n([^\n]*)/.exec(
      command,
    );
  const subject = (inline?.[1] ?? inline?.[2] ?? heredoc?.[1] ?? '').split('\n')[0]?.trim();
  return subject || null;
}

/** The commits a `git log` / `git show` printed, oneline (`hash subject`) or in full (`commit <hash>`, its subject indented). */
function loggedCommits(output: string): { hash: string; subject: string }[] {
  const out: { hash: string; subject: string }[] = [];
  const lines = output.split('\n');
  lines.forEach((line, i) => {
    const full = /^commit ([0-9a-f]{7,64})\b/.exec(line);
    if (full?.[1]) {
      const subject = lines.slice(i + 1, i + 8).find((l) => /^ {4}\S/.test(l));
      if (subject) out.push({ hash: full[1], subject: subject.trim() });
      return;
    }
    const oneline = /^([0-9a-f]{7,64}) (.+)$/.exec(line.trim());
    if (oneline?.[1] && oneline[2]) out.push({ hash: oneline[1], subject: oneline[2].trim() });
  });
  return out;
}

/**
 * A commit made without git's `[branch hash] subject` line (`git commit -q`) and then shown by the same command: by
 * `git log` or `git show` (oneline or in full) printing a commit with the commit's own subject, or by `&& git rev-parse
 * --short HEAD` printing the hash alone. An older commit the log shows (the commit failed, the log ran anyway) has
 * another subject. Null otherwise.
 */
function quietCommit(command: string, e: TranscriptEntry): { hash: string; subject: string } | null {
  if (toolFailed(e)) return null;
  const shown = /\bgit\s+commit\b[\s\S]*?\bgit\s+(?:--no-pager\s+)?(log|show|rev-parse)\b/.exec(command);
  const subject = commitSubject(command);
  if (!shown || !subject) return null;
  if (shown[1] !== 'rev-parse') {
    const logged = loggedCommits(e.text).find((c) => c.subject === subject);
    return logged ? { hash: logged.hash, subject } : null;
  }
  // a hash alone says nothing of which commit it is: only right after a commit that succeeded (`&&`)
  if (!/\bgit\s+commit\b[^;|\n]*&&\s*git\s+rev-parse\b/.test(command)) return null;
  const hash = e.text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^[0-9a-f]{7,64}$/.test(l));
  return hash ? { hash, subject } : null;
}

/** The pull request an MCP tool's input names (`pull_number`, `pullNumber`, `number`, `index`). */
function mcpPullNumber(input: unknown): string | null {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const n = o.pull_number ?? o.pullNumber ?? o.number ?? o.index;
  return typeof n === 'number' || (typeof n === 'string' && /^\d+$/.test(n)) ? String(n) : null;
}

/**
 * Commits, pushes, pull requests, branches and worktrees, read from the commands that made them: a commit needs a
 * `git commit` (cherry-pick, revert) in the command and git's `[branch hash] subject` line in its output, so a
 * program that prints such lines (a test of a git tool) is not taken for one.
 */
export function findGitEffects(entries: readonly TranscriptEntry[]): {
  commits: Commit[];
  effects: Effect[];
} {
  const commits: Commit[] = [];
  const effects: Effect[] = [];
  const seenPr = new Set<string>();
  const pr = (e: TranscriptEntry, url: string, tool: string) => {
    if (seenPr.has(url)) return;
    seenPr.add(url);
    effects.push({ line: e.line, at: e.at, kind: 'pr', tool, summary: url });
  };
  for (const e of entries) {
    if (e.sidechain) continue;
    if (e.kind === 'text' && e.role === 'assistant') {
      for (const m of e.text.matchAll(prDirective)) if (m[1]) pr(e, m[1], 'git-create-pr');
      continue;
    }
    if (e.kind !== 'tool_result') continue;
    const commands = shellCommands(e);
    const all = commands.join(' ; ');
    const tool = e.tool?.name ?? 'tool';
    // a branch renamed (`git branch -m [old] new`): its commits are on the new name, which a later amend names
    const renamed = renaming.exec(all);
    if (renamed && !toolFailed(e)) {
      const [from, to] = renamed[2] ? [renamed[1], renamed[2]] : [commits.at(-1)?.branch, renamed[1]];
      for (const c of commits) if (from && c.branch === from) c.branch = to ?? null;
    }
    if (committing.test(all)) {
      const printed = printedCommits(e.text);
      const quiet = printed.length ? null : quietCommit(all, e);
      if (quiet && !commits.some((c) => c.hash === quiet.hash)) {
        commits.push({ line: e.line, at: e.at, ...quiet, branch: null });
        effects.push({
          line: e.line,
          at: e.at,
          kind: 'commit',
          tool,
          summary: commitSummary(quiet.hash, quiet.subject),
        });
      }
      for (const { branch, hash, subject } of printed) {
        if (commits.some((c) => c.hash === hash)) continue;
        // `git commit --amend` replaces the branch's last commit: the one it replaces is said, not listed as done; one
        // made before these entries (an earlier turn's, imported before) is found among the recorded ones later
        const amends = amending.test(all);
        const amended = amends ? commits.findLast((c) => c.branch === branch) : undefined;
        commits.push({ line: e.line, at: e.at, hash, subject, branch });
        effects.push({
          line: e.line,
          at: e.at,
          kind: 'commit',
          tool,
          summary: commitSummary(hash, subject, amended ? amended.hash : amends ? 'earlier' : undefined),
        });
      }
    }
    if (pushing.test(all) && !toolFailed(e) && !pushRejected.test(e.text) && !dryRun.test(all)) {
      const ref = pushedRef.exec(e.text);
      // a chain may delete one remote branch and push another (a rename): both are said
      const deleted = [...e.text.matchAll(/^[ \t]*-[ \t]*\[deleted\]\s+(\S+)/gm)].map((m) => m[1]);
      const target = ref ? `${ref[4]} -> ${ref[5]}` : (commands.find((c) => pushing.test(c)) ?? 'git push');
      // where the remote now is: each push of a branch is its own (a force push after an amend is not the first)
      const moved = ref?.[3] ? (ref[1] ? ` (${ref[3]}, replacing ${ref[2]})` : ` (up to ${ref[3]})`) : '';
      const push = (summary: string) => effects.push({ line: e.line, at: e.at, kind: 'push', tool, summary });
      for (const branch of deleted) push(`deleted the remote branch ${branch}`);
      // "Everything up-to-date": the remote had it all, nothing was pushed
      const nothing = !ref && (deleted.length > 0 || /^Everything up-to-date\s*$/m.test(e.text));
      if (!nothing) push(`${ref?.[1] ? 'force-pushed' : 'pushed'} ${target}${moved}`);
    }
    // a branch or a worktree made: creating it again fails (`fatal: a branch named 'x' already exists`)
    if (!toolFailed(e) && !/^fatal:/m.test(e.text))
      for (const summary of branchesMade(all))
        effects.push({ line: e.line, at: e.at, kind: 'other', tool, summary });
    const createsPr =
      /\b(?:gh\s+pr|glab\s+mr)\s+create\b/.test(all) ||
      /create[_-](?:pull|merge)[_-]request/i.test(tool + String(e.tool?.input ?? ''));
    if (createsPr && !toolFailed(e)) for (const m of e.text.matchAll(prUrl)) pr(e, m[0], tool);
    const merge = /\bgh\s+pr\s+merge\b([^;&|\n]*)/.exec(all);
    if (merge && !toolFailed(e)) {
      const summary = mergeSummary(merge[1] ?? '', e.text);
      effects.push({ line: e.line, at: e.at, kind: 'pr', tool, summary });
    }
    // a GitHub MCP server's merge tool (merge_pull_request, merge-pull-request): the number is in its input
    const merged = /merge[_-]pull[_-]request/i.test(tool) ? mcpPullNumber(e.tool?.input) : null;
    if (merged && !toolFailed(e))
      effects.push({ line: e.line, at: e.at, kind: 'pr', tool, summary: `merged PR #${merged}` });
  }
  return { commits, effects };
}
