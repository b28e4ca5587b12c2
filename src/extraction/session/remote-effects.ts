import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { shellCommands } from '../rules/shell-command.js';
import type { Effect } from './git-effects.js';
import { toolFailed } from './tool-failed.js';

/**
 * What the session wrote somewhere other people see, besides git (git-effects.ts) and the files (file-effects.ts): a
 * comment posted, an issue opened or closed, a release, a package published, an MCP tool that changed a tracker. A
 * next session that does not know must not do it twice ("already done, do not redo").
 */

const url = (text: string) => /https?:\/\/\S+?(?=[\s"'`)>\]]|$)/.exec(text)?.[0] ?? null;
const at = (text: string) => {
  const u = url(text);
  return u ? ` (${u})` : '';
};

/** A command with its quoted words emptied: what a quoted body or message says is never read as a command. */
const unquoted = (command: string) => command.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""');

const kind = (k: string | undefined) => (k === 'pr' ? 'PR' : 'issue');
/** `#12` for a number, the argument as written otherwise, "the current branch's PR" with none. */
const ref = (k: string | undefined, r: string | undefined) =>
  r ? `${kind(k)} ${/^\d+$/.test(r) ? `#${r}` : r}` : k === 'pr' ? "the current branch's PR" : 'an issue';
const arg = '(?:\\s+([^\\s-]\\S*))?';

/** `gh` and publishing commands that write, read on the unquoted command: the summary from it and its output. */
const shellWrites: [RegExp, (m: RegExpExecArray, output: string) => string | null][] = [
  [/\bgh\s+issue\s+create\b/, (_, out) => `opened an issue${at(out)}`],
  [
    new RegExp(`\\bgh\\s+(issue|pr)\\s+comment${arg}`),
    (m, out) => `commented on ${ref(m[1], m[2])}${at(out)}`,
  ],
  [
    new RegExp(`\\bgh\\s+pr\\s+review${arg}[^;&|\\n]*?--(approve|request-changes|comment)\\b`),
    (m) => review(m),
  ],
  // one closed before ("! Pull request #222 ... is already closed") was not closed by this session
  [
    new RegExp(`\\bgh\\s+(issue|pr)\\s+close${arg}`),
    (m, out) => (/\bis already closed\b/i.test(out) ? null : `closed ${ref(m[1], m[2])}`),
  ],
  [/\bgh\s+release\s+create\s+([^\s-]\S*)/, (m, out) => `created release ${m[1]}${at(out)}`],
  [/\b(?:npm|pnpm|yarn)\s+publish\b/, () => 'published the package to npm'],
  [/\bcargo\s+publish\b/, () => 'published the crate to crates.io'],
  [/\bdocker\s+push\s+(\S+)/, (m) => `pushed the image ${m[1]}`],
];

const review = (m: RegExpExecArray) => {
  const what =
    m[2] === 'approve' ? 'approved' : m[2] === 'request-changes' ? 'requested changes on' : 'reviewed';
  return `${what} ${ref('pr', m[1])}`;
};

/** `gh api` options that take a value (the value is not the path). */
const valued =
  /^(?:-[XfFHqtp]|--(?:method|field|raw-field|header|input|jq|template|preview|hostname|cache))$/;

/**
 * `gh api <path>` that writes, read on the unquoted command: a method other than GET, or fields without one (gh then
 * POSTs). A GraphQL call writes when its query is a mutation (read in the quoted query): named by the mutation.
 */
function ghApiWrite(raw: string, bare: string, output: string): string | null {
  const m = /\bgh\s+api\s+([^;&|\n]*)/.exec(bare);
  if (!m?.[1]) return null;
  const words = m[1].trim().split(/\s+/);
  let path: string | null = null;
  let method: string | null = null;
  let fields = false;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i] ?? '';
    const [flag, inline] = w.startsWith('--') ? w.split('=', 2) : [w.slice(0, 2), w.slice(2) || undefined];
    if (flag && valued.test(flag)) {
      const value = inline ?? words[(i += inline === undefined ? 1 : 0)];
      if (flag === '-X' || flag === '--method') method = (value ?? '').toUpperCase();
      if (['-f', '-F', '--field', '--raw-field', '--input'].includes(flag)) fields = true;
    } else if (!w.startsWith('-') && path === null) path = w;
  }
  if (path === 'graphql') {
    const mutation = /\bmutation\b[^{]*\{\s*(\w+)/.exec(raw)?.[1];
    return mutation ? `GitHub ${mutation} (gh api graphql)${at(output)}` : null;
  }
  if (!path || (method ? method === 'GET' : !fields)) return null;
  return `${method ?? 'POST'} ${path} (gh api)`;
}

/**
 * An MCP tool whose name says it changes something a team tracks (create_comment, update_issue, add_label...): not
 * one that reads, nor one that writes local files or memory.
 */
const mcpWrite =
  /^mcp__([\w.-]+?)__((?:create|update|add|post|send|delete|remove|close|reopen|assign|comment|reply|submit|publish|archive|resolve|edit|set|move|label)_?\w*?(?:issue|comment|ticket|task|card|story|epic|project|label|milestone|review|message|reply|status|discussion|page)s?(?:_\w+)?)$/i;
/** Already read elsewhere: the pull requests (git-effects.ts), and Baton's own tools (the agent recording into it). */
const mcpElsewhere = /pull[_-]?request|merge/i;

/** What an MCP tool's input names: an id, a number, a title. */
function subjectOf(input: unknown): string {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return '';
    }
  }
  if (typeof v !== 'object' || v === null) return '';
  const o = v as Record<string, unknown>;
  for (const k of ['issueId', 'issue_id', 'id', 'number', 'issue_number', 'key', 'title', 'name']) {
    const x = o[k];
    if (typeof x === 'number' || (typeof x === 'string' && x.trim()))
      return ` ${String(x).replace(/\s+/g, ' ').trim().slice(0, 60)}`;
  }
  return '';
}

export function findRemoteEffects(entries: readonly TranscriptEntry[]): Effect[] {
  const effects: Effect[] = [];
  for (const e of entries) {
    if (e.sidechain || e.kind !== 'tool_result' || toolFailed(e)) continue;
    const tool = e.tool?.name ?? 'tool';
    const push = (summary: string) => effects.push({ line: e.line, at: e.at, kind: 'other', tool, summary });
    const mcp = mcpWrite.exec(tool);
    if (mcp) {
      const [, server, name] = mcp;
      if (server !== 'baton' && !mcpElsewhere.test(name ?? ''))
        push(`${server} ${name}${subjectOf(e.tool?.input)}`);
      continue;
    }
    for (const raw of shellCommands(e)) {
      const bare = unquoted(raw);
      // a dry run says what it would do, and does nothing
      if (/\s--dry-run\b/.test(bare)) continue;
      for (const [pattern, say] of shellWrites) {
        const m = pattern.exec(bare);
        const said = m ? say(m, e.text) : null;
        if (said) push(said);
      }
      const api = ghApiWrite(raw, bare, e.text);
      if (api) push(api);
    }
  }
  return effects;
}
