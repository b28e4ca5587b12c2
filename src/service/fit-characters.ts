import { CHARS_PER_TOKEN, roughTokens } from '../core/rough-tokens.js';
import { briefingCut, budgetedSurfaces, retrievalFooter, type SessionSnapshot } from '../core/index.js';
import { isFenceLine } from '../core/clip.js';
import type { CompiledContext } from './context-compiler.js';

/**
 * The sections a briefing still too long for its characters (its must-keep facts at their shortest are longer) leaves
 * out first, whole, in this order: what the agent can look up again (the compaction summary, Git State, the decisions, the work done: `baton
 * context` has them) before the plan, so that what the agent was doing (the Last State) and what to do next, which
 * nothing else says, are cut last.
 */
const leftOutFirst = [
  'Before the Compaction',
  'Git State',
  'Key Decisions Made',
  'Unaddressed Reviewer Feedback',
  'TDD State',
  'Already Done',
  'Errors Encountered',
  'Plan Status',
];

/**
 * A briefing split before each of its `### ` sections (the text before the first one apart): a `### ` line inside a
 * code block (the agent's last message quoting markdown) starts none.
 */
function sectionsOf(body: string): string[] {
  const parts: string[][] = [[]];
  let inCode = false;
  for (const line of body.split('\n')) {
    if (!inCode && line.startsWith('### ')) parts.push([]);
    if (isFenceLine(line)) inCode = !inCode;
    parts.at(-1)!.push(line);
  }
  return parts.map((p) => p.join('\n'));
}

/**
 * Cuts a compiled briefing to `room` characters, saying so (`note`) under its heading, once: in place of the note a
 * context over its token budget has there already. Whole sections go first (`leftOutFirst`); then the text before
 * What to Do Next is cut at its end; What to Do Next is cut only when it alone is longer than the room.
 */
function cutToRoom(body: string, room: number, note: string): string {
  const [head = '', ...sections] = sectionsOf(body.replace(/^\(briefing cut to fit [^\n]*\n\n/m, ''));
  const top = `${head}\n${note}\n`;
  const join = (parts: string[]) => [top, ...parts].join('\n');
  const named = (s: string, name: string) => s.startsWith(`### ${name}`);
  let kept = sections;
  for (const name of leftOutFirst) {
    if (join(kept).length <= room) return join(kept);
    kept = kept.filter((s) => !named(s, name));
  }
  if (join(kept).length <= room) return join(kept);
  const at = kept.findIndex((s) => named(s, 'What to Do Next'));
  const next = at < 0 ? [] : kept.slice(at);
  const before = `${join(kept.slice(0, at < 0 ? kept.length : at))}`;
  const left = room - (next.length ? next.join('\n').length + 1 : 0) - 2;
  if (left <= top.length) return join(kept).slice(0, room);
  return [`${before.slice(0, left)}…\n`, ...next].join('\n').slice(0, room);
}

export interface CharacterFit {
  text: string;
  hash: string;
  tokens: number;
  chars: number;
  cut: boolean;
}

/**
 * Fits a context into `maxChars` characters: compiles with a token budget that shrinks until the text and the
 * footer (the hook's for `agent`, which reads it: the MCP tools first for Codex, whose sandbox runs no `baton`) fit (the compiler shrinks the low-priority parts first and keeps the
 * must-keep facts); when even those do not fit, the text is cut (`cutToRoom`: the next step and the last state last)
 * with a note saying so. The hash is the compiled context's (what the agent acknowledges).
 */
export function fitToCharacters(
  compile: (budget: number) => CompiledContext,
  snap: Pick<SessionSnapshot, 'id' | 'workflow_id'>,
  maxChars: number,
  agent: string | null = null,
): CharacterFit {
  const footer = retrievalFooter(snap, agent === 'codex' ? 'codex-hook' : 'hook');
  const room = maxChars - footer.length;
  // the budget keeps room for the footers of `baton context` and the MCP server, which the hook's takes the place of
  const theirs = Math.max(...budgetedSurfaces.map((s) => roughTokens(retrievalFooter(snap, s))));
  let budget = Math.max(200, Math.floor(room / CHARS_PER_TOKEN) + theirs);
  let compiled = compile(budget);
  let body = compiled.body;
  for (let i = 0; i < 8 && body.length > room && budget > 200; i++) {
    budget = Math.max(200, Math.floor(((budget * room) / body.length) * 0.95));
    compiled = compile(budget);
    body = compiled.body;
  }
  let cut = false;
  if (body.length > room) {
    const whole = agent === 'codex' ? 'the MCP tool get_resume_context has the whole' : undefined;
    body = cutToRoom(body, room, briefingCut(`${maxChars} characters`, whole));
    cut = true;
  }
  const text = body + footer;
  return { text, hash: compiled.hash, tokens: roughTokens(text), chars: text.length, cut };
}
