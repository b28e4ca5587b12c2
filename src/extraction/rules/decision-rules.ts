import type { TranscriptEntry } from '../../agents/transcript-types.js';
import type { DecisionDraft } from '../extractor.js';
import { decisionType, isDecision, isDecisionAfter, rationale } from './decision-phrasing.js';
import { draft, signalDecisions } from './decision-signals.js';
import { userDirectives } from './user-directives.js';

/** Headers under which agents list what they chose: "Key adaptations:", "Design decisions:". */
const choiceHeader =
  /^(?:\*\*)?(?:key |main |design |the )?(?:decisions?|adaptations?|choices|trade-?offs|approach(?: taken)?|changes in approach)(?:\*\*)?:?(?:\*\*)?$/i;

/** Prose sentences (code blocks, tables and quoted material left out), with their list items marked. */
function sentences(text: string): { text: string; item: boolean; header: boolean }[] {
  const out: { text: string; item: boolean; header: boolean }[] = [];
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
    if (choiceHeader.test(line)) {
      out.push({ text: line, item: false, header: true });
      continue;
    }
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z`*])/)) {
      const t = s.trim();
      if (t.length >= 12 && t.length <= 600) out.push({ text: t, item, header: false });
    }
  }
  return out;
}

function rationaleOf(sentence: string, next: string | undefined): string {
  // "Since X, I'll Y": the reason is the opening clause
  const opening = /^(?:since|because|as|given that)\s+(.+?),\s+(?:I|we|let|so)\b/i.exec(sentence);
  if (opening?.[1]) return opening[1].trim();
  const match =
    rationale.exec(sentence) ??
    (next ? /^(?:because|since|this is because|that's because)\b\s*(.+)$/i.exec(next) : null);
  return match ? (match[1] ?? '').trim().replace(/[.]$/, '') : '';
}

/** Decisions stated in assistant prose (thinking included). */
function stated(entry: TranscriptEntry, taskId: string | null): DecisionDraft[] {
  const list = sentences(entry.text);
  const out: DecisionDraft[] = [];
  let underHeader = false;
  list.forEach((s, i) => {
    if (s.header) {
      underHeader = true;
      return;
    }
    if (!s.item) underHeader = false;
    const previous = list[i - 1]?.text;
    if ((underHeader && s.item) || isDecision(s.text))
      out.push(draft(entry, decisionType(s.text), s.text, rationaleOf(s.text, list[i + 1]?.text), taskId));
    else if (isDecisionAfter(s.text, previous))
      out.push(draft(entry, decisionType(`${previous ?? ''} ${s.text}`), s.text, previous ?? '', taskId));
  });
  return out;
}

/** Decisions from the agent's statements and structured signals, in transcript order. */
export function findDecisions(entries: readonly TranscriptEntry[], taskId: string | null): DecisionDraft[] {
  const out: DecisionDraft[] = [];
  for (const entry of entries) {
    if (entry.sidechain) continue;
    if (entry.role === 'assistant' && (entry.kind === 'text' || entry.kind === 'thinking'))
      out.push(...stated(entry, taskId));
  }
  out.push(...signalDecisions(entries, taskId), ...userDirectives(entries, taskId));
  return out.sort((a, b) => (a.evidence_line ?? 0) - (b.evidence_line ?? 0));
}
