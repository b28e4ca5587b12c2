import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { looksOnly, readTools } from '../looks.js';
import { spoken } from '../../session/requests.js';

/**
 * A user's question about what the project holds ("where is DAG defined? what is it referring to?", "why is the
 * cache keyed by user?") is answered by describing what exists: a choice the answer reports ("The decision: keep the
 * pipeline a fixed DAG rather than agent-decided delegation", read from an ADR) was made before the session, not in
 * it. Such a turn, when the agent changes nothing in it (it only reads, searches and looks), states no decision. A
 * question that asks what to do ("how should we ...?", "what do you think of ...?", "which is better?", "what's
 * next?") is answered with a choice, and a turn that changes something acts on one.
 */
const asksWhatExists = /^\s*(?:where|what|why|how|which|who|when)\b[^]{0,300}\?\s*$/i;
const asksWhatToDo =
  /\b(?:should|shall|would|could|can (?:we|you|i)|best|better|prefer|recommend|suggest|think|opinion|approach|options?|if we|about|next|plan|instead)\b/i;
/** Tools that only read or search: the file readers, the web and the tool list. */
const reads = (name: string) => readTools.has(name) || /^(?:WebFetch|WebSearch|ToolSearch)$/.test(name);

/** A message of the user's own (not a reminder, a task notification or another agent's message). */
const prompt = (e: TranscriptEntry) =>
  !e.sidechain && e.role === 'user' && e.kind === 'text' && spoken(e.text) !== null;
const changes = (e: TranscriptEntry) => e.kind === 'tool_call' && !reads(e.tool?.name ?? '') && !looksOnly(e);

/** The turns (from the question to the user's next message) that only explain what exists, as line ranges. */
export function explainingTurns(entries: readonly TranscriptEntry[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  entries.forEach((e, i) => {
    if (!prompt(e)) return;
    const text = (spoken(e.text) ?? '').replace(/[\u2018\u2019]/g, "'");
    if (!asksWhatExists.test(text) || asksWhatToDo.test(text)) return;
    const next = entries.findIndex((n, j) => j > i && prompt(n));
    const turn = entries.slice(i + 1, next < 0 ? undefined : next);
    if (!turn.some(changes))
      out.push({ from: e.line, to: next < 0 ? Infinity : (entries[next]?.line ?? Infinity) });
  });
  return out;
}

/** Whether a line falls in a turn that only explains what exists. */
export const inExplainingTurn = (turns: readonly { from: number; to: number }[], line: number) =>
  turns.some((t) => line > t.from && line < t.to);
