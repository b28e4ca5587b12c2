import type { TranscriptEntry } from '../../agents/transcript-types.js';
import type { DecisionType } from '../../core/schemas/records.js';
import type { DecisionDraft } from '../extractor.js';
import { shellCommand } from './shell-command.js';

type Kind = (typeof DecisionType.options)[number];

/** Sentence patterns, most specific first. Each says the agent chose something, not that it looked at something. */
const patterns: { type: Kind; re: RegExp }[] = [
  {
    type: 'clarification',
    re: /\b(interpret(ed|ing)? .{0,40}?\bas|I('ll| will) assume|assuming (that )?(you|the user)|this (likely |probably )?means (adding|using|changing|setting|putting|that (we|I) should)|take (it|this) to mean)\b/i,
  },
  {
    type: 'workaround',
    re: /\b(work ?around|fall(ing)? back (to|on)|as a fallback|instead of|(I|we)('ll| will|'m| am) .{0,40}\binstead\b)\b/i,
  },
  {
    type: 'skip',
    re: /\b(skip(ping)? (the|this|it)|defer(ring)? (the|this|it)|leave .{0,30} for later|out of scope for now|not (going to|worth) (implement|add|do))/i,
  },
  {
    type: 'library',
    re: /\b(chose|choose|going with|opted for|switch(ed)? to|use|using)\s+`?[\w@/.-]+`?\s+(library|package|crate|module|framework|dependency|over|instead)\b/i,
  },
  {
    type: 'architecture',
    re: /\b(in both [\w -]{0,30}(paths|places|adapters|modules|layers)|split (it |this )?into|separate (module|layer|file)|single source of truth|(new|dedicated) (module|layer|service|adapter))\b/i,
  },
  {
    type: 'approach',
    re: /\b(decided|decision is|chose|going with|opted|the (best|fastest|simplest|cleanest) (way|approach|option|setup|fix) is|is a (perfect|good|natural) (use case|fit) for|I('m going to| will| ?'ll) (codify|write (the )?(a )?failing test)|test[- ]first|failing (test|expectation) first|the plan is)\b/i,
  },
];

const rationale = /\b(because|since|so that|given that|as it|as this|due to)\b\s*(.+)$/i;

function sentences(text: string): string[] {
  return (
    text
      .replace(/```[\s\S]*?```/g, ' ')
      .split(/(?<=[.!?])\s+|\n+/)
      .map((s) =>
        s
          .replace(/^[\s>*#-]+/, '')
          .replace(/[\u2018\u2019]/g, "'")
          .trim(),
      )
      // questions, and pro/con or checklist bullets, weigh options rather than state a choice
      .filter((s) => s.length >= 12 && s.length <= 600 && !s.endsWith('?'))
      .filter((s) => !/^(pros?|cons?|\p{Extended_Pictographic}|[✓✗✔✘])/iu.test(s))
  );
}

function rationaleOf(sentence: string, next: string | undefined): string {
  const match =
    rationale.exec(sentence) ?? (next ? /^(because|since|this is because)\b(.+)$/i.exec(next) : null);
  return match ? (match[2] ?? '').trim().replace(/[.]$/, '') : '';
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
  list.forEach((sentence, i) => {
    const hit = patterns.find((p) => p.re.test(sentence));
    if (hit) out.push(draft(entry, hit.type, sentence, rationaleOf(sentence, list[i + 1]), taskId));
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

/** Decisions from explicit statements and structured signals, in transcript order. */
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
