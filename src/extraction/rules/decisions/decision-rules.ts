import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { DecisionDraft } from '../../extractor.js';
import { isDecision, isDecisionAfter } from './decision-phrasing.js';
import { decisionType, typeAfterCause } from './decision-types.js';
import { isStep } from './looks-and-steps.js';
import { namedChoice, sentences, type Sentence } from './prose-sentences.js';
import { rationaleOf, saysNothing, tidy } from './reason-shapes.js';
import { draft, signalDecisions } from './decision-signals.js';
import { diagnosis, isRemedy, remedyInSentence } from './decision-remedies.js';
import { replyEndOf, restatedIn, userDirectives } from './user-directives.js';
import { isRejected, rejectedRanges } from './rejected-plans.js';
import { courseCorrections } from './course-corrections.js';
import { isStatedChange, replacedAlternative } from './stated-changes.js';
import { eitherOrAnswers } from './either-or-answers.js';
import { numberedAnswers, settledQuestions } from './settled-questions.js';
import { explainingTurns, inExplainingTurn } from './explained-designs.js';
import { dropRestatedSummaries, dropRestatements, turnStarts } from './restatements.js';
import { isKoreanDecision, koreanReason, koreanType } from './korean-phrasing.js';

/**
 * "The cleaner solution would be to X. But since I can't Y, maybe Z.": a choice weighed and dropped in the next
 * sentence is not taken.
 */
const weighedThenDropped = (sentence: string, next: string | undefined) =>
  /\bwould (?:be|have been)\b/i.test(sentence) && next !== undefined && /^(?:but|however)\b/i.test(next);

/** Decisions stated in assistant prose (thinking included), adding the summaries of changes made to `summaries`. */
function stated(
  entry: TranscriptEntry,
  taskId: string | null,
  summaries: Set<DecisionDraft>,
): DecisionDraft[] {
  const list = sentences(entry.text);
  const out: DecisionDraft[] = [];
  let under: Sentence['holds'] | null = null;
  /** The last cause named in this message, waiting for the change it calls for. */
  let cause: string | null = null;
  let namedSeen = false;
  const remedies: DecisionDraft[] = [];
  list.forEach((s, i) => {
    if (s.header) {
      under = s.holds ?? null;
      if (under === 'recommendation') {
        // the items under "Recommended fix:" are one recommendation, said whole
        const items: string[] = [];
        for (const next of list.slice(i + 1)) {
          if (!next.item) break;
          if (next.lead) items.push(next.line ?? next.text);
        }
        if (items.length) out.push(draft(entry, 'approach', `${s.text} ${items.join('; ')}`, '', taskId));
      }
      if (under === 'plan' && !namedSeen) {
        // a plan set out in a list is one choice, unless its steps only look and run ("1. Read ... 2. Check ..."),
        // or it details the solution a heading before it named
        const rest = list.slice(i + 1);
        const end = rest.findIndex((n) => n.header || n.named || n.heading);
        const items = (end < 0 ? rest : rest.slice(0, end)).filter((n) => n.item && n.lead);
        if (items.length >= 2 && items.some((n) => !isStep(n.text)))
          out.push(
            draft(
              entry,
              'approach',
              `${s.text.replace(/:$/, '')}: ${items.map((n) => n.text).join('; ')}`,
              '',
              taskId,
            ),
          );
      }
      return;
    }
    if (!s.item) under = null;
    const previous = list[i - 1]?.text;
    if (under === 'recommendation') return;
    if (under === 'restraint') {
      // each item under "Not changed:" is one choice not to change something, its reason in the item's words
      const whole = s.line ?? s.text;
      if (s.lead) out.push(draft(entry, 'skip', whole, rationaleOf(whole, undefined), taskId));
      return;
    }
    if (s.named) {
      // one named solution per message: the first heading names it, later ones detail it
      if (!namedSeen) {
        const kind = /\barchitecture\b/i.test(s.text) ? 'architecture' : 'approach';
        out.push(draft(entry, kind, s.text, tidy(cause ?? ''), taskId));
      }
      namedSeen = true;
      cause = null;
    } else if (weighedThenDropped(s.text, list[i + 1]?.text)) {
      cause = null;
    } else if (
      (under === 'choices' && s.item && !isStep(s.text)) ||
      isDecision(s.text) ||
      isStatedChange(s.text, previous)
    ) {
      const why = rationaleOf(s.text, list[i + 1]?.text) || tidy(cause ?? '');
      const found = draft(entry, decisionType(s.text), s.text, why, taskId);
      if (!isDecision(s.text) && replacedAlternative(s.text, previous)) summaries.add(found);
      out.push(found);
      cause = null;
    } else if (isKoreanDecision(s.text)) {
      const why = koreanReason(s.text, previous);
      out.push(draft(entry, koreanType(`${why} ${s.text}`) ?? 'approach', s.text, why, taskId));
      cause = null;
    } else if (isDecisionAfter(s.text, previous))
      out.push(draft(entry, typeAfterCause(previous ?? '', s.text), s.text, tidy(previous ?? ''), taskId));
    else if (cause !== null && isRemedy(s.text)) {
      remedies.push(draft(entry, typeAfterCause(cause, s.text), s.text, tidy(cause), taskId));
      cause = null;
    } else {
      const inSentence = remedyInSentence(s.text);
      if (inSentence !== null)
        remedies.push(draft(entry, decisionType(s.text), s.text, tidy(inSentence), taskId));
      else if (diagnosis.test(s.text)) cause = s.text;
      // "Found it. The service worker still caches v1.": what was found is the sentence after
      else if (cause !== null && saysNothing(cause)) cause = s.text;
    }
  });
  // a change after its cause counts when the message states no choice of its own, once
  if (out.length === 0 && remedies[0]) out.push(remedies[0]);
  // a sentence that announces what its colon introduces ("Option 3 seems best because:") gives way to a choice the
  // message states whole
  const whole = out.filter((d) => !d.description.endsWith(':'));
  return whole.length ? whole : out;
}

/** Decisions from the agent's statements and structured signals, in transcript order. */
export function findDecisions(entries: readonly TranscriptEntry[], taskId: string | null): DecisionDraft[] {
  const prose: DecisionDraft[] = [];
  const summaries = new Set<DecisionDraft>();
  for (const entry of entries) {
    if (entry.sidechain) continue;
    if (entry.role === 'assistant' && (entry.kind === 'text' || entry.kind === 'thinking'))
      prose.push(...stated(entry, taskId, summaries));
  }
  const rejected = rejectedRanges(entries);
  const explaining = explainingTurns(entries);
  const once = dropRestatedSummaries(dropRestatements(prose, turnStarts(entries)), summaries, entries);
  // a plan the user turned down, and a choice an answer about what exists reports, are not this session's decisions
  const out = once.filter(
    (d) =>
      !isRejected(rejected, d.evidence_line ?? 0, d.description) &&
      !inExplainingTurn(explaining, d.evidence_line ?? 0),
  );
  // a directive the agent restates in its reply ("I'll pass the dev VPC id in as a variable instead.") is one
  // decision, evidenced where the agent takes it up, with its own reason
  const restated = (u: DecisionDraft) => {
    const at = entries.findIndex((e) => e.line === u.evidence_line);
    const end = replyEndOf(entries, at);
    return out.some((d) => (d.evidence_line ?? 0) > (u.evidence_line ?? 0) && (d.evidence_line ?? 0) <= end);
  };
  const directives = userDirectives(entries, taskId)
    .filter((u) => !restated(u))
    .map((u) => {
      const reply = restatedIn(entries, u);
      return reply ? { ...u, at: reply.at, evidence_line: reply.line } : u;
    });
  // the agent's answer to the user's either-or question, unless its reply already states a choice there
  const answers = eitherOrAnswers(entries, taskId).filter(
    (a) => !out.some((d) => d.evidence_line === a.evidence_line),
  );
  out.push(...signalDecisions(entries, taskId), ...directives, ...answers);
  // the user's answer to the agent's "Want me to ...?", unless a directive there or the agent's reply holds it, or
  // it only says yes to a choice the asking message states
  const line = (d: DecisionDraft) => d.evidence_line ?? 0;
  for (const { decision: a, asked, bare } of settledQuestions(entries, taskId)) {
    const end = replyEndOf(
      entries,
      entries.findIndex((e) => e.line === a.evidence_line),
    );
    const approves = bare && out.some((d) => line(d) === asked);
    if (!approves && !out.some((d) => line(d) >= line(a) && line(d) <= end)) out.push(a);
  }
  // the user's answers to the points of the agent's numbered list, one decision each
  out.push(...numberedAnswers(entries, taskId));
  // a correction the agent accepted, unless the user's directive or the agent's reply already holds a decision, or
  // a heading later in the turn names the solution it led to
  for (const c of courseCorrections(entries, taskId)) {
    const within = (d: DecisionDraft, end: number) =>
      d.evidence_line !== null && d.evidence_line >= c.user.line && d.evidence_line <= end;
    const covered = out.some(
      (d) => within(d, c.replyEnd) || (within(d, c.turnEnd) && namedChoice.test(d.description)),
    );
    if (!covered) out.push(c.decision);
  }
  return out.sort((a, b) => (a.evidence_line ?? 0) - (b.evidence_line ?? 0));
}
