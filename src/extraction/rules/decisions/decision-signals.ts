import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { DecisionDraft } from '../../extractor.js';
import { alternativesIn } from './alternatives-considered.js';
import { saysNothing } from './reason-shapes.js';
import type { Kind } from './decision-types.js';
import { addedDependencies, installedDependencies } from './dependency-edits.js';
import { shellCommand } from '../shell-command.js';

export function draft(
  entry: Pick<TranscriptEntry, 'at' | 'line'>,
  type: Kind,
  description: string,
  why: string,
  taskId: string | null,
): DecisionDraft {
  return {
    task_id: taskId,
    decision_type: type,
    description: description.slice(0, 400),
    rationale: saysNothing(why) ? '' : why.slice(0, 400),
    alternatives_considered: alternativesIn(description),
    at: entry.at,
    evidence_line: entry.line,
  };
}

/** The user's answers to the agent's questions (AskUserQuestion): `"question"="answer"` pairs. */
const answeredHeader =
  /answered your questions?|questions? (?:have|has) been answered|\bthe user answered\b/i;
const answered = /"([^"]{3,300})"="([^"]{1,300})"/g;
/** The user approved the plan the agent presented (Claude Code's ExitPlanMode result). */
const planApproved = /^\s*User has approved (?:your plan|exiting plan mode)/i;
const ok = (e: TranscriptEntry) =>
  e.kind === 'tool_result' && e.tool?.is_error !== true && (e.tool?.exit_code ?? 0) === 0;

/** The plan's title: its first heading, else its first line. */
const titleOf = (plan: string) =>
  (/^#+\s+(.+)$/m.exec(plan)?.[1] ?? plan.split('\n').find((l) => l.trim() !== '') ?? '')
    .replace(/^plan:\s*/i, '')
    .trim();

/** How much of an approved plan's body its decision keeps: within a rationale's 400 characters (`draft`). */
const PLAN_BODY_CHARS = 360;

/**
 * What an approved plan says past its title, as one line (its steps and the choices it states: "throw RangeError
 * rather than return NaN"), so the decision keeps more than the plan's name: its lines joined, list marks dropped.
 */
function planBody(plan: string, title: string): string {
  const lines = plan.split('\n').map((l) => l.replace(/^\s*(?:#+|[-*+]|\d+[.)])\s+/, '').trim());
  const from = lines.findIndex((l) => l.replace(/^plan:\s*/i, '') === title);
  const body = lines
    .slice(from + 1)
    .filter((l) => l !== '' && l.replace(/^plan:\s*/i, '') !== title)
    .join('; ')
    .replace(/\s+/g, ' ');
  return body.length > PLAN_BODY_CHARS ? `${body.slice(0, PLAN_BODY_CHARS - 1).trimEnd()}…` : body;
}

/**
 * Decisions the session records in structured form rather than prose: the user's answers to the agent's questions,
 * a plan the user approved (evidenced where the plan was stated: the ExitPlanMode call carrying it, else the agent's
 * last message before the call), a dependency added by a succeeding install command or by an edit of a manifest
 * (evidenced by the edit call).
 */
export function signalDecisions(entries: readonly TranscriptEntry[], taskId: string | null): DecisionDraft[] {
  const out: DecisionDraft[] = [];
  const calls = new Map<string, TranscriptEntry>();
  let lastSaid: TranscriptEntry | null = null;
  for (const entry of entries) {
    if (entry.sidechain) continue;
    if (entry.role === 'assistant' && entry.kind === 'text' && entry.text.trim().length > 0) lastSaid = entry;
    if (entry.kind === 'tool_call' && entry.tool?.id) calls.set(entry.tool.id, entry);
    if (!ok(entry)) continue;
    const call = (entry.tool?.id && calls.get(entry.tool.id)) || null;
    if (answeredHeader.test(entry.text.slice(0, 200))) {
      for (const m of entry.text.matchAll(answered))
        out.push(
          draft(entry, 'clarification', `${m[1] ?? ''} -> ${m[2] ?? ''}`, "the user's answer", taskId),
        );
      continue;
    }
    if (entry.tool?.name === 'ExitPlanMode' && planApproved.test(entry.text)) {
      const input = entry.tool.input as { plan?: unknown } | null;
      const plan = typeof input?.plan === 'string' && input.plan.trim() ? input.plan : null;
      const where = plan ? (call ?? entry) : lastSaid;
      const text = plan ?? lastSaid?.text ?? '';
      const title = titleOf(text);
      const body = planBody(text, title);
      const why = `the user approved the plan${body ? `: ${body}` : ''}`;
      if (where && title) out.push(draft(where, 'approach', `Approved plan: ${title}`, why, taskId));
      continue;
    }
    for (const { manifest, names } of addedDependencies(entry))
      out.push(
        draft(call ?? entry, 'library', `Added dependency ${names.join(', ')} (${manifest})`, '', taskId),
      );
    const names = (shellCommand(entry) ?? '').split(/&&|\|\||;|\|/).flatMap(installedDependencies);
    if (names.length > 0)
      out.push(draft(call ?? entry, 'library', `Added dependency ${names.join(', ')}`, '', taskId));
  }
  return out;
}
