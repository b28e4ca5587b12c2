import type { TranscriptEntry } from '../../agents/transcript-types.js';
import type { DecisionType } from '../../core/schemas/records.js';
import type { DecisionDraft } from '../extractor.js';
import { decisionType, isDecision, rationale } from './decision-phrasing.js';
import { shellCommand } from './shell-command.js';

type Kind = (typeof DecisionType.options)[number];

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

function draft(
  entry: TranscriptEntry,
  type: Kind,
  description: string,
  why: string,
  taskId: string | null,
): DecisionDraft {
  return {
    task_id: taskId,
    decision_type: type,
    description: description.slice(0, 400),
    rationale: why.slice(0, 400),
    alternatives_considered: null,
    at: entry.at,
    evidence_line: entry.line,
  };
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
    const chosen = (underHeader && s.item) || isDecision(s.text);
    if (chosen)
      out.push(draft(entry, decisionType(s.text), s.text, rationaleOf(s.text, list[i + 1]?.text), taskId));
  });
  return out;
}

const answered = /"([^"]{3,300})"="([^"]{1,300})"/g;
const dependencyAdd =
  /\b(npm (?:install|i|add)|pnpm add|yarn add|pip3? install|poetry add|uv add|cargo add|go get|gem install|bundle add|mix igniter\.install)\s+((?:[@\w][\w@/.:=<>~^-]*\s*)+)/;

/** Structured signals: answers to the agent's questions, dependencies added by a succeeding command. */
function structured(entry: TranscriptEntry, taskId: string | null): DecisionDraft[] {
  if (entry.kind !== 'tool_result' || entry.tool?.is_error) return [];
  if (/answered your questions?/i.test(entry.text)) {
    return [...entry.text.matchAll(answered)].map((m) =>
      draft(entry, 'clarification', `${m[1] ?? ''} -> ${m[2] ?? ''}`, "the user's answer", taskId),
    );
  }
  const command = shellCommand(entry);
  const segments = (command ?? '').split(/&&|\|\||;|\|/).map((c) => c.trim());
  const dep =
    segments.map((c) => (c.match(/^\S+/) ? dependencyAdd.exec(c) : null)).find((m) => m?.index === 0) ?? null;
  if (dep && (entry.tool?.exit_code ?? 0) === 0) {
    const names = (dep[2] ?? '')
      .trim()
      .split(/\s+/)
      .filter((n) => !n.startsWith('-'));
    if (names.length > 0)
      return [draft(entry, 'library', `Added dependency ${names.join(', ')}`, '', taskId)];
  }
  return [];
}

/** Decisions from the agent's statements and structured signals, in transcript order. */
export function findDecisions(entries: readonly TranscriptEntry[], taskId: string | null): DecisionDraft[] {
  const out: DecisionDraft[] = [];
  for (const entry of entries) {
    if (entry.sidechain) continue;
    if (entry.role === 'assistant' && (entry.kind === 'text' || entry.kind === 'thinking')) {
      out.push(...stated(entry, taskId));
    } else {
      out.push(...structured(entry, taskId));
    }
  }
  return out;
}
