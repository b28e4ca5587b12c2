import { clip } from '../core/clip.js';
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

/** What Claude Code appends to a sub-agent's answer: the id to resume it by, and what it used. */
const trailer = /\n*agentId: [^\n]*(?:\n<usage>[^]*?<\/usage>)?\s*$/;

const tag = (text: string, name: string) =>
  new RegExp(`<${name}>([^]*?)</${name}>`).exec(text)?.[1]?.trim() ?? null;

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

/** An agent's name from its path in Codex's team (`/root/migration_resilience`): its last part. */
const named = (path: string) => path.split('/').filter(Boolean).at(-1) ?? path;

/**
 * The sub-agent answers one entry holds:
 * - the result of Claude Code's `Task`/`Agent` call that waited for its sub-agent (the answer, without the trailer);
 * - Claude Code's `<task-notification>` of a background agent's end (`<summary>Agent "..." finished</summary>` and
 *   `<result>`);
 * - Codex's `<subagent_notification>` (`{"agent_id", "status": {"completed": ...}}`);
 * - a Codex team message `Message Type: FINAL_ANSWER` (its `Sender` and `Payload`);
 * - the result of Codex's `wait` on sub-agents (`{"status": {"<id>": {"completed": ...}}}`).
 */
export function answersIn(e: TranscriptEntry): SubAgentAnswer[] {
  if (e.sidechain) return [];
  const at = (agent: string, text: string) => [{ line: e.line, agent, text: text.trim() }];
  if (e.kind === 'tool_result' && e.tool?.is_error !== true) {
    const input = e.tool?.input as { description?: unknown; subagent_type?: unknown } | null;
    if (agentTools.has(e.tool?.name ?? '') && !launched.test(e.text)) {
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
    const agent = /^Agent "(.+)" \w+/.exec(tag(e.text, 'summary') ?? '')?.[1];
    const result = tag(e.text, 'result');
    return agent && result ? at(agent, result) : [];
  }
  const notified = /^\s*<subagent_notification>/.test(e.text) ? tag(e.text, 'subagent_notification') : null;
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

/** An answer's words on one line: its preamble left out, markdown marks dropped. */
function oneLine(text: string): string {
  return withoutPreamble(text)
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
  const said = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  return said.length <= 120 || top ? said : '';
}

/** The room one answer takes in the agent's last state. */
const ANSWER_CHARS = 400;
/** The answers named there: the latest. */
const ANSWERS = 4;

/**
 * The answers of sub-agents that came after entry `after` (the agent's last message): what they found is newer than
 * its words, and it had not yet said what it made of it. The latest few, each on one line, and how many came
 * before them; null when none did.
 */
export function answersAfter(
  entries: readonly TranscriptEntry[],
  after: number,
): { text: string; through: number } | null {
  const answers = entries.slice(after + 1).flatMap(answersIn);
  const seen = new Set<string>();
  const unique = answers.filter((a) => {
    const key = `${a.agent}\n${a.text.slice(0, 200)}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  if (!unique.length) return null;
  const shown = unique.slice(-ANSWERS);
  const earlier = unique.length - shown.length;
  const lines = shown.map((a) => {
    const json = /^\s*[[{]/.test(a.text) ? parsed(a.text) : null;
    const said = (json !== null ? jsonGist(json) : '') || oneLine(a.text);
    return `- ${a.agent}: ${clip(said, ANSWER_CHARS)}`;
  });
  const head = `Sub-agents answered after it${earlier ? ` (the latest ${shown.length} of ${unique.length})` : ''}:`;
  return { text: [head, ...lines].join('\n'), through: Math.max(...shown.map((a) => a.line)) };
}
