import type { ToolOutcome } from './call-text.js';

/** A pull request's address on GitHub (any host: GitHub Enterprise too) or a GitLab merge request's. */
const prUrl =
  /https?:\/\/[\w.-]+(?::\d+)?\/[\w.-]+(?:\/[\w.-]+)+?\/(?:pull|-\/merge_requests)\/\d+(?![\w/])/g;
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
  // one merged before (`! Pull request o/r#221 was already merged`) is merged, whatever `--auto` asked
  const done =
    /\b(?:Merged|Squashed and merged|Rebased and merged) pull request\b|\bwas already merged\b/.test(output);
  const queued = /will be (?:automatically merged|added to the merge queue)/i.test(output);
  if (!done && (queued || /(?:^|\s)--auto\b/.test(args))) return `enabled auto-merge of ${pr}`;
  return `merged ${pr}`;
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
 * Whether a call that worked was made to open a pull request (GitLab merge request): `gh pr create`, `glab mr create`,
 * or an MCP tool named for it (create_pull_request, create-merge-request), also called from a Codex code-mode cell.
 */
export function createsPr(call: ToolOutcome): boolean {
  return (
    !call.failed &&
    (/\b(?:gh\s+pr|glab\s+mr)\s+create\b/.test(call.commands.join(' ; ')) ||
      /create[_-](?:pull|merge)[_-]request/i.test(call.tool + String(call.input ?? '')))
  );
}

/** The pull requests (GitLab merge requests) a call opened (createsPr): the addresses its output holds. */
export function openedPrs(call: ToolOutcome): string[] {
  return createsPr(call) ? [...call.output.matchAll(prUrl)].map((m) => m[0]) : [];
}

/** The pull requests a call merged or queued for merging: by `gh pr merge` (mergeSummary), or an MCP merge tool. */
export function mergedPrs(call: ToolOutcome): string[] {
  if (call.failed) return [];
  const out: string[] = [];
  const merge = /\bgh\s+pr\s+merge\b([^;&|\n]*)/.exec(call.commands.join(' ; '));
  if (merge) out.push(mergeSummary(merge[1] ?? '', call.output));
  // a GitHub MCP server's merge tool (merge_pull_request, merge-pull-request): the number is in its input
  const merged = /merge[_-]pull[_-]request/i.test(call.tool) ? mcpPullNumber(call.input) : null;
  if (merged) out.push(`merged PR #${merged}`);
  return out;
}

/** A merged pull request as `gh pr view` shows it: `{"state":"MERGED"}` (`--json`), `state:\tMERGED` (plain). */
const mergedState = /"state"\s*:\s*"MERGED"|^state:\s+MERGED$/m;

/**
 * The number of the pull request a read showed merged: `gh pr view 221 --json state` answering `{"state":"MERGED"}`,
 * or `MERGED` alone (`--jq .state`). Only a call whose one command views one pull request by its number or address:
 * what several print together is not known to be of that one. Null otherwise.
 */
export function viewedMerged(call: ToolOutcome): string | null {
  if (call.failed || call.commands.length !== 1) return null;
  const views = [...(call.commands[0] ?? '').matchAll(/\bgh\s+pr\s+view\b([^;&|\n]*)/g)];
  if (views.length !== 1) return null;
  const number = /(?:^|\s)(?:#?(\d+)|\S*\/pull\/(\d+))(?=\s|$)/.exec(views[0]?.[1] ?? '');
  const n = number?.[1] ?? number?.[2];
  return n && (mergedState.test(call.output) || call.output.trim() === 'MERGED') ? n : null;
}
