import { clip } from '../core/clip.js';
import { NOT_ANSWERED } from '../core/call-text.js';
import { tagText } from './tag-text.js';
import type { TranscriptEntry } from './transcript-types.js';

/** A sub-agent's final answer, as it reached the agent that started it: the sub-agent's name and what it said. */
export interface SubAgentAnswer {
  line: number;
  agent: string;
  text: string;
}

/** The tools Claude Code starts a sub-agent with (`Task` until 2.1, `Agent` since). */
const agentTools = new Set(['Task', 'Agent']);

/** Codex's tools that wait for sub-agents (`wait` of the first collaboration tools, `wait_agent`). */
const waits = new Set(['wait', 'wait_agent']);

/**
 * A Claude Code sub-agent that runs in the background answers later, in a task notification: its call's result only
 * says it started ("Async agent launched successfully", "Spawned successfully").
 */
const launched = /^\s*(?:Async agent launched|Spawned successfully)\b/;

/** A sub-agent call (Claude Code's `Task` / `Agent`) whose result says only that the sub-agent started: it runs on. */
export const runsOn = (tool: string | null | undefined, result: string): boolean =>
  agentTools.has(tool ?? '') && launched.test(result);

/** What Claude Code appends to a sub-agent's answer: the id to resume it by, and what it used. */
const trailer = /\n*agentId: [^\n]*(?:\n<usage>[^]*?<\/usage>)?\s*$/;

/**
 * A completed status as Codex writes an agent's: `{"completed": "its final message"}` (a failed one:
 * `{"errored": "why"}`); null for one still running or closed without a word.
 */
function statusAnswer(status: unknown): string | null {
  if (typeof status !== 'object' || status === null) return null;
  const s = status as { completed?: unknown; errored?: unknown };
  if (typeof s.completed === 'string' && s.completed.trim()) return s.completed;
  if (typeof s.errored === 'string' && s.errored.trim()) return `(failed) ${s.errored}`;
  return null;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * A message of a Claude Code teammate (an agent team's member), relayed as the user's: "Another Claude session sent a
 * message:" then `<agent-message from="design-review">` and its words, or `<teammate-message
 * teammate_id="design-review">` and a JSON notification.
 */
const teammateMessage =
  /^[^<\n]{0,80}\n?\s*<(?:agent-message from|teammate-message teammate_id)="([^"]+)"[^>]*>([^]*?)<\/(?:agent|teammate)-message>/;

/** An agent's name from its path in Codex's team (`/root/migration_resilience`): its last part. */
const named = (path: string) => path.split('/').filter(Boolean).at(-1) ?? path;

/**
 * The sub-agent answers one entry holds:
 * - the result of Claude Code's `Task`/`Agent` call that waited for its sub-agent (the answer, without the trailer);
 * - Claude Code's `<task-notification>` of a background agent's end (`<summary>Agent "..." finished</summary>` and
 *   `<result>`);
 * - a Claude Code teammate's message (`<agent-message from="...">`, or `<teammate-message teammate_id="...">`: its
 *   message, or its idle notification's summary);
 * - Codex's `<subagent_notification>` (`{"agent_id", "status": {"completed": ...}}`);
 * - a Codex team message `Message Type: FINAL_ANSWER` (its `Sender` and `Payload`);
 * - the result of Codex's `wait` on sub-agents (`{"status": {"<id>": {"completed": ...}}}`).
 */
export function answersIn(e: TranscriptEntry): SubAgentAnswer[] {
  if (e.sidechain) return [];
  const at = (agent: string, text: string) => [{ line: e.line, agent, text: text.trim() }];
  if (e.kind === 'tool_result' && e.tool?.is_error !== true) {
    const input = e.tool?.input as { description?: unknown; subagent_type?: unknown } | null;
    if (agentTools.has(e.tool?.name ?? '') && !runsOn(e.tool?.name, e.text)) {
      const agent =
        typeof input?.description === 'string' ? input.description : String(input?.subagent_type ?? 'agent');
      const text = e.text.replace(trailer, '');
      return text.trim() ? at(agent, text) : [];
    }
    if (!waits.has(e.tool?.name ?? '')) return [];
    const waited = parsed(e.text) as { status?: unknown } | null;
    if (typeof waited?.status !== 'object' || waited.status === null) return [];
    return Object.entries(waited.status).flatMap(([id, status]) => {
      const text = statusAnswer(status);
      return text ? at(id, text) : [];
    });
  }
  if (e.role === 'assistant' || (e.kind !== 'meta' && e.kind !== 'text')) return [];
  if (/^\s*<task-notification>/.test(e.text)) {
    const agent = /^Agent "(.+)" \w+/.exec(tagText(e.text, 'summary') ?? '')?.[1];
    const result = tagText(e.text, 'result');
    return agent && result ? at(agent, result) : [];
  }
  const teammate = teammateMessage.exec(e.text);
  if (teammate?.[1]) {
    // its message, or the summary its idle notification carries ("[to main] ... — VERDICT: REVISE")
    const body = (teammate[2] ?? '').trim();
    const m = parsed(body) as { message?: unknown; summary?: unknown; content?: unknown } | null;
    const said = m === null ? body : [m.message, m.content, m.summary].find((v) => typeof v === 'string');
    const text = typeof said === 'string' ? said.replace(/^\s*\[to [^\]]+\]\s*/, '') : '';
    return text.trim() ? at(teammate[1], text) : [];
  }
  const notified = /^\s*<subagent_notification>/.test(e.text)
    ? tagText(e.text, 'subagent_notification')
    : null;
  if (notified !== null) {
    const n = parsed(notified) as { agent_id?: unknown; status?: unknown } | null;
    const text = statusAnswer(n?.status);
    return text && typeof n?.agent_id === 'string' ? at(n.agent_id, text) : [];
  }
  const final = /^Message Type: FINAL_ANSWER\n(?:[^\n]*\n)*?Sender: ([^\n]+)\nPayload:\n([^]*)$/.exec(e.text);
  return final?.[1] && final[2]?.trim() ? at(named(final[1].trim()), final[2]) : [];
}

/**
 * The sentences a sub-agent opens its answer with about itself, not its findings: "Perfect!", "Now I have a
 * comprehensive understanding of the codebase.", "Let me compile this into a report.", "Here is my complete report."
 */
const preamble =
  /^(?:(?:perfect|excellent|great|good|ok(?:ay)?|alright|done)\b[^.!?\n]*[.!?]|(?:now |so )?(?:i now have|i have now|i've now|now i have|i have (?:all|enough|a (?:clear|complete|comprehensive|thorough))|let me|i'll now|i will now|here(?:'s| is| are))\b[^\n]*?(?:[.!?:](?=\s|$)|$))\s*/i;

/** An answer without its preamble: the sentences about itself it opens with, or a paragraph set off by a rule. */
function withoutPreamble(text: string): string {
  const rule = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/m.exec(text);
  // "Perfect! Now I have a comprehensive understanding ... Let me compile it.\n\n---\n\n# Report": the report
  let body = (rule && rule.index < 400 ? text.slice(rule.index + rule[0].length) : text).trim();
  for (let m = preamble.exec(body); m && m[0].length > 0; m = preamble.exec(body))
    body = body.slice(m[0].length);
  return body.trim() || text.trim();
}

/**
 * An answer's words on one line: its preamble left out, markdown marks dropped, its code blocks too (a JSON sample, a
 * diff: flattened, they read as noise; the whole answer is in the record) unless it is nothing else.
 */
function oneLine(text: string): string {
  const body = withoutPreamble(text);
  const prose = body.replace(/```[\s\S]*?(?:```|$)/g, '\n');
  return (prose.trim() ? prose : body)
    .split('\n')
    .map((l) =>
      l
        .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*)/, '')
        .replace(/\*\*/g, '')
        .trim(),
    )
    .filter((l) => l && !/^(?:-{3,}|\*{3,}|_{3,}|```\w*)$/.test(l))
    .join(' · ');
}

/**
 * A JSON answer (a reviewer's findings) said by its short values, with their keys at the top: "reviewer: testing ·
 * P2, Replay test does not cover ..., tests/test_x.py:88". Long values (the explanations) are left out; they are in
 * the record.
 */
function jsonGist(value: unknown, top = true): string {
  if (Array.isArray(value))
    return value
      .map((v) => jsonGist(v, false))
      .filter(Boolean)
      .join(' · ');
  if (typeof value === 'object' && value !== null) {
    const parts = Object.entries(value).flatMap(([k, v]) => {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
        const said = String(v).replace(/\s+/g, ' ').trim();
        if (!said || said.length > 120) return [];
        return [top ? `${k}: ${said}` : said];
      }
      const inner = jsonGist(v, false);
      return inner ? [top ? `${k}: ${inner}` : inner] : [];
    });
    return parts.join(top ? ' · ' : ', ');
  }
  // a list's notes ("residual_risks": [...]) are what it holds: each kept, cut short
  return typeof value === 'string' ? clip(value.replace(/\s+/g, ' ').trim(), top ? ANSWER_CHARS : 160) : '';
}

/**
 * A JSON answer cut short (the transcript keeps a long output's ends), which no longer parses: its short string fields
 * in order, by name ("reviewer: testing · severity: P1 · title: Truncated NUL-framed output is accepted").
 */
function brokenJsonGist(text: string): string {
  return [...text.matchAll(/"([\w-]+)"\s*:\s*"((?:[^"\\\n]|\\.){1,120})"/g)]
    .map((m) => `${m[1]}: ${(m[2] ?? '').replace(/\\(.)/g, '$1')}`)
    .join(' · ');
}

/** The room one answer takes in the agent's last state. */
const ANSWER_CHARS = 400;
/** The answers named there: the latest. */
const ANSWERS = 4;

/**
 * The sub-agents the agent started in `entries` that run on their own and answer later: a Codex team member
 * (`spawn_agent` with a `task_name`, which its FINAL_ANSWER names as its sender), a Claude Code background agent (an
 * `Agent` call answered "Async agent launched", whose task notification names its description) or teammate (answered
 * "Spawned successfully", whose messages carry its `name`). One refused is none.
 */
function started(entries: readonly TranscriptEntry[]): { line: number; agent: string }[] {
  return entries.flatMap((e) => {
    if (e.sidechain || e.kind !== 'tool_result' || e.tool?.is_error === true) return [];
    const input = e.tool?.input as { task_name?: unknown; description?: unknown; name?: unknown } | null;
    if (e.tool?.name === 'spawn_agent' && typeof input?.task_name === 'string')
      return [{ line: e.line, agent: input.task_name }];
    if (agentTools.has(e.tool?.name ?? '') && /^\s*Async agent launched/.test(e.text))
      return typeof input?.description === 'string' ? [{ line: e.line, agent: input.description }] : [];
    // a teammate, by the name its messages carry
    if (agentTools.has(e.tool?.name ?? '') && /^\s*Spawned successfully/.test(e.text))
      return typeof input?.name === 'string' ? [{ line: e.line, agent: input.name }] : [];
    return [];
  });
}

/** The names of the sub-agents still running said at most. */
const RUNNING = 6;

/**
 * What the sub-agents of the agent's turn (its entries from `from` on) came to: their answers, which it had not yet
 * reported on when the turn did not end (the latest few, each on one line, and how many came before them), and those it
 * started that had not answered when the transcript ends (a turn that ended waiting for them). Null when there is none.
 */
export function subAgentsOfTurn(
  entries: readonly TranscriptEntry[],
  from: number,
  opts: { ended?: boolean; message?: number } = {},
): { text: string; through: number } | null {
  const turn = entries.slice(from + 1);
  const seen = new Set<string>();
  const all = turn.flatMap(answersIn).filter((a) => {
    const key = `${a.agent}\n${a.text.slice(0, 200)}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const answered = new Set(all.map((a) => a.agent));
  const running = started(turn).filter((s) => !answered.has(s.agent));
  // a turn that ended reported on its answers; those it still waits for are all there is to say
  const unique = opts.ended ? [] : all;
  if (!unique.length && !running.length) return null;
  const shown = unique.slice(-ANSWERS);
  const lines = shown.map((a) => {
    const looksJson = /^\s*[[{]/.test(a.text);
    const json = looksJson ? parsed(a.text) : null;
    const said =
      (json !== null ? jsonGist(json) : looksJson ? brokenJsonGist(a.text) : '') || oneLine(a.text);
    return `- ${a.agent}: ${clip(said, ANSWER_CHARS)}`;
  });
  const of = unique.length > shown.length ? ` (the latest ${shown.length} of ${unique.length})` : '';
  // all of them after the agent's last message (line `message`), or some before it, in the turn it was on
  const when = unique.every((a) => a.line > (opts.message ?? Infinity)) ? 'after it' : 'in its turn';
  const names = [...new Set(running.map((r) => r.agent))];
  const more = names.length > RUNNING ? ` and ${names.length - RUNNING} more` : '';
  const text = [
    ...(shown.length
      ? [`Sub-agents answered ${when}${of} (whole answers: \`baton details summaries\`):`, ...lines]
      : []),
    ...(names.length ? [`${NOT_ANSWERED} ${names.slice(0, RUNNING).join(', ')}${more}`] : []),
  ].join('\n');
  return { text, through: Math.max(...shown.map((a) => a.line), ...running.map((r) => r.line)) };
}
