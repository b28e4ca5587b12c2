import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { DecisionDraft } from '../../extractor.js';
import { similarity } from '../../similarity.js';

/**
 * Agents say a choice twice in one turn: in their thinking and again in the text the user reads ("Let me create a
 * new file specifically for interactive testing helpers." / "Let me create a dedicated file for the interactive pty
 * helpers:"), or once while exploring and again before the edit ("The lightest-weight approach for Go is to use..."
 * / "The lightest-weight approach is to add..."). Within one turn (until the user speaks again) a decision that
 * shares most of its words with an earlier one, or names the same qualified choice, is the same decision.
 */

/** The qualified noun a stated choice is about: "the lightest-weight approach", "the simplest fix". */
const head =
  /\b(?:the|my|our) ((?:[\w-]+ ){1,2}(?:fix|plan|approach|solution|choice|option|way|setup|strategy|design)) (?:for [^ ]+ )?(?:is|will be|would be)\b/i;
const headOf = (text: string) => head.exec(text)?.[1]?.toLowerCase() ?? null;

/** Same turn, looser than the import-wide dedupe (which stays at its own threshold). */
const turnThreshold = 0.45;

/** Lines where a turn of the user starts. */
export function turnStarts(entries: readonly TranscriptEntry[]): number[] {
  return entries
    .filter(
      (e) => !e.sidechain && e.role === 'user' && e.kind === 'text' && !e.text.trimStart().startsWith('<'),
    )
    .map((e) => e.line);
}

/** The decisions (in transcript order) without the ones that restate an earlier one of the same turn. */
export function dropRestatements(
  decisions: readonly DecisionDraft[],
  starts: readonly number[],
): DecisionDraft[] {
  const turnOf = (line: number | null) => starts.filter((s) => s <= (line ?? 0)).length;
  const kept: { decision: DecisionDraft; turn: number; head: string | null }[] = [];
  for (const d of decisions) {
    const turn = turnOf(d.evidence_line);
    const h = headOf(d.description);
    const again = kept.some(
      (k) =>
        k.turn === turn &&
        ((h !== null && k.head === h) || similarity(k.decision.description, d.description) >= turnThreshold),
    );
    if (!again) kept.push({ decision: d, turn, head: h });
  }
  return kept.map((k) => k.decision);
}

/** The code spans of a text: "`hk util`", "`Settings`". */
const spans = (text: string) => new Set((text.match(/`[^`\n]{2,80}`/g) ?? []).map((s) => s.toLowerCase()));

/**
 * A change summarised at the end of the work ("`hk util` now uses default settings instead of loading ...") restates
 * the choice the agent stated when it made it, in any earlier turn: it is one decision, at the first statement, when
 * the message of an earlier decision names the same code (a shared `code span`).
 */
export function dropRestatedSummaries(
  decisions: readonly DecisionDraft[],
  summaries: ReadonlySet<DecisionDraft>,
  entries: readonly TranscriptEntry[],
): DecisionDraft[] {
  const textAt = new Map(entries.map((e) => [e.line, e.text]));
  return decisions.filter((d, i) => {
    if (!summaries.has(d)) return true;
    const named = spans(d.description);
    return !decisions
      .slice(0, i)
      .some((earlier) => [...spans(textAt.get(earlier.evidence_line ?? 0) ?? '')].some((s) => named.has(s)));
  });
}
