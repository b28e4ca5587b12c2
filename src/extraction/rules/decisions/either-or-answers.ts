import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { DecisionDraft } from '../../extractor.js';
import { isStep } from './looks-and-steps.js';
import { isNotAChoice } from './not-choices.js';
import { draft } from './decision-signals.js';
import { firstReplyText } from './user-directives.js';
import { sentencesOf } from '../../../core/sentences.js';

/**
 * The user asks which of two ways the agent takes ("will the list be keyed on the hashed email, or on email +
 * name?") and the agent's reply opens by naming one ("Keyed on the hashed email only. The reasoning: ..."): the
 * answer is the agent's choice, evidenced at the reply. A question of fact ("is the bug in the parser or the
 * lexer?") asks what is, not what the agent will do; a reply that opens with a look, a step or a question of its
 * own does not choose.
 */
const eitherOr =
  /^(?:will|would|should|shall|which|do (?:you|we)|are (?:you|we) going to)\b([^?]{2,120}?),? or ([^?]{2,120})\?\s*$/i;
const stop = new Set(
  'the and for with will would should could that this then from into only just'.split(' '),
);
const words = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z][a-z0-9_+-]{2,}/g) ?? []).filter((w) => !stop.has(w)));

export function eitherOrAnswers(entries: readonly TranscriptEntry[], taskId: string | null): DecisionDraft[] {
  const out: DecisionDraft[] = [];
  entries.forEach((e, i) => {
    if (e.sidechain || e.role !== 'user' || e.kind !== 'text' || e.text.length > 400) return;
    const asked = eitherOr.exec(e.text.trim().split('\n').at(-1) ?? '');
    if (!asked) return;
    const reply = firstReplyText(entries, i);
    const opening = reply ? sentencesOf(reply.text.replace(/\*\*/g, '').trim())[0]?.trim() : undefined;
    if (!reply || !opening || isStep(opening) || isNotAChoice(opening)) return;
    const said = words(opening);
    const names = (side: string) => [...words(side)].some((w) => said.has(w));
    // the opening names one side: it shares a word with one of them that the other does not hold
    const [a, b] = [words(asked[1] ?? ''), words(asked[2] ?? '')];
    const only = (x: Set<string>, y: Set<string>) => [...x].some((w) => !y.has(w) && said.has(w));
    if ((names(asked[1] ?? '') || names(asked[2] ?? '')) && (only(a, b) || only(b, a)))
      out.push(
        draft(reply, 'approach', opening.replace(/[.:]+$/, ''), "the answer to the user's question", taskId),
      );
  });
  return out;
}
