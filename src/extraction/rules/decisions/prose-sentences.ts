import { restraintHeader } from './restraint.js';

/** Headers under which agents list what they chose: "Key adaptations:", "Design decisions:". */
const choiceHeader =
  /^(?:\*\*)?(?:key |main |design |the )?(?:decisions?|adaptations?|choices|approach(?: taken)?|changes in approach)(?:\*\*)?:?(?:\*\*)?$/i;

/**
 * The header with its choice on the same line: "Key adaptations: used serde for parsing", "Decision: keep v1". Not
 * "Approach: ...", which also describes each option weighed ("### Option 2 ... Approach: track message ids").
 */
const inlineChoice = /^(?:key |main |design )?(?:decisions?|adaptations?|choices):\s+\S.{8,}$/i;

/** "Recommended fix:", "Recommendation:": the list under it is the agent's recommendation, one choice. */
const recommendationHeader =
  /^(?:(?:my|our) )?(?:recommended (?:fix|approach|solution|plan|option|change|changes|path|course)|recommendations?)\s*:$/i;

/** "Plan:", "## Implementation plan for the importer", "Revised plan (round 2):": a plan set out in the list below. */
const planHeader =
  /^(?:(?:the|my|our|revised|updated|final|new|proposed|implementation|fix|migration|refactor(?:ing)?|rollout)\s+)*plan(?:\s+(?:for|to)\s+[^:]{1,60}|\s*\([^)]{1,30}\))?\s*:?$/i;

/**
 * A markdown heading that names the chosen solution: "## Revised Approach: Process-Level Correlation", "### Solution:
 * Parse Claude's history.jsonl". A numbered alternative ("Approach 2: ...") is one option among several, not the
 * choice; a plan's heading names a choice only when it marks the plan as the one chosen ("Final Implementation Plan:
 * Extend Existing HistoryParser", not "Implementation Plan: Session Transition Detection"). A proposal is not yet a
 * choice ("Proposed Solution: ..."), and a title that names what exists describes it ("Architecture: Current Request
 * Flow", "Design: Overview").
 */
export const namedChoice =
  /^(?:(?:(?:revised|recommended|final|chosen|corrected|simplified|selected|new|the|our|my)\s+)*(?:solution|approach|design|architecture|fix)|(?:revised|recommended|final|chosen|corrected|selected)\s+(?:[\w-]+\s+)?plan)\s*:\s*(?!(?:approach|option|alternative)\s+\w+\b)(?!(?:the\s+)?(?:current|existing|overview|summary|background|problem|today'?s?)\b)\S.{2,}$/i;

export interface Sentence {
  text: string;
  item: boolean;
  header: boolean;
  /**
   * What a heading holds: choices ("Key decisions:", each item one), changes left alone ("Not changed:", each item a
   * choice not to change something), a recommendation ("Recommended fix:", its items one choice) or a plan ("Plan:",
   * its items one choice when they do more than look).
   */
  holds?: 'choices' | 'restraint' | 'recommendation' | 'plan';
  /** The first sentence of its line, and the whole line: an item under a heading is one choice. */
  lead?: boolean;
  line?: string;
  /** Said on a markdown heading's line ("### Phase 1"). */
  heading?: boolean;
  /** A heading naming the chosen solution. */
  named?: boolean;
}

/** Prose sentences (code blocks, tables and quoted material left out), with their list items marked. */
export function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const prose = text.replace(/```[\s\S]*?```/g, '\n');
  for (const rawLine of prose.split('\n')) {
    if (/^\s*(>|\|)/.test(rawLine)) continue; // quotes and table rows: not the agent's own sentence
    const item = /^\s*(?:[-*+]|\d+[.)])\s+/.test(rawLine);
    const line = rawLine
      .replace(/^[\s>*#-]+/, '')
      .replace(/^\d+[.)]\s+/, '')
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\*\*/g, '')
      .trim();
    if (!line) continue;
    const title = line.replace(/^[^\p{L}]+/u, '');
    if (/^\s*#{1,4}\s/.test(rawLine) && namedChoice.test(title)) {
      out.push({ text: title, item: false, header: false, named: true });
      continue;
    }
    const holds = choiceHeader.test(line)
      ? 'choices'
      : restraintHeader.test(line)
        ? 'restraint'
        : recommendationHeader.test(line)
          ? 'recommendation'
          : planHeader.test(line) && (/^\s*#{1,4}\s/.test(rawLine) || line.endsWith(':'))
            ? 'plan'
            : null;
    if (holds) {
      out.push({ text: line, item: false, header: true, holds });
      continue;
    }
    if (inlineChoice.test(line) && line.length <= 600) {
      // the header and its choice on one line: one choice, said with its header
      out.push({ text: line, item: false, header: true, holds: 'choices' });
      out.push({ text: line, item: true, header: false, lead: true, line });
      continue;
    }
    // a sentence ends at . ! ? before a capital (not at "e.g." or "i.e.", nor inside code: `ALTER TABLE ... ADD`),
    // also when the space after it is missing ("...entries.Let me"), and where a list's item ran into the next thought
    // with neither stop nor space ("Update the tests to use the new helpersBut actually, ...": a word opening a sentence
    // glued to a lowercase one, which no identifier's camelCase does before a space)
    let lead = true;
    for (const s of hideCodeStops(line).split(
      /(?<=[.!?])(?<!\b(?:e\.g|i\.e|vs|cf|etc)\.)\s+(?=[A-Z`*\uAC00-\uD7A3])|(?<=[a-z]{2}[.!?])(?=[A-Z][a-z]+ )|(?<=[a-z]{3})(?=(?:But|However|Actually|Wait|Hmm) )/,
    )) {
      const t = showCodeStops(s).trim();
      if ((t.length >= 12 || /^found it[.!]$/i.test(t)) && t.length <= 600)
        out.push({ text: t, item, header: false, lead, line, heading: /^\s*#{1,6}\s/.test(rawLine) });
      lead = false;
    }
  }
  return out;
}

/** Sentence stops inside inline code (`a.b`, `ALTER TABLE ... ADD`), as characters no sentence ends at, and back. */
const codeStops: Record<string, string> = { '.': '\uE000', '!': '\uE001', '?': '\uE002' };
const hideCodeStops = (line: string) =>
  line.replace(/`[^`\n]+`/g, (code) => code.replace(/[.!?]/g, (c) => codeStops[c] ?? c));
const showCodeStops = (text: string) =>
  text.replace(/[\uE000-\uE002]/g, (c) => '.!?'[c.charCodeAt(0) - 0xe000] ?? c);
