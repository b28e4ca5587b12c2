import {
  actor,
  alternative,
  choiceWord,
  clarifying,
  explicit,
  namedItself,
  pastOfDoing,
  planOf,
  statedChoice,
} from './choice-signs.js';
import { doing, doingAnyForm, doingNow, opensWithDoing } from './doing-verbs.js';
import { bareLook, isStep, lookPurpose, looking, processStep } from './looks-and-steps.js';
import { announcesFragment, deliberating, isNotAChoice, judged, unnamedChoice } from './not-choices.js';
import { limitation, rationale, soThen } from './reason-shapes.js';

/**
 * How agents state a choice. A decision needs the agent as the one choosing (I'll, let me, we'll, the fix is...),
 * a verb that changes or builds something (not looking, reading, checking), and a sign of choice: a rationale
 * (because, since, so that...) or a word of choice (instead, rather than, dedicated, fall back, skip...).
 * Explicit statements ("I decided", "going with") count on their own.
 */

/** "Pulling the logic into its own struct so ...", "Skip the deprecated copies for now since ...": no actor named. */
const bareStart = /^([\w-]+)/;
const forNow = /\bfor now\b|\buntil\b/i;
function bareChoice(sentence: string): boolean {
  const verb = bareStart.exec(sentence)?.[1] ?? '';
  if (!opensWithDoing(sentence) || bareLook.test(verb) || /^(?:using|adding|creating)$/i.test(verb))
    return false;
  if (/^(?:skip|defer|omit|postpone|drop)/i.test(verb) && (rationale.test(sentence) || forNow.test(sentence)))
    return true;
  if (/ing$/i.test(verb))
    return choiceWord.test(sentence) || (rationale.test(sentence) && !lookPurpose.test(sentence));
  // an order of the agent's own, with the way set aside: "Serve the folder over HTTP instead of opening the file"
  return alternative.test(sentence);
}

export function isDecision(text: string): boolean {
  const colon = text.endsWith(':');
  const sentence = colon ? text.slice(0, -1).trimEnd() : text;
  if (announcesFragment(text) || (colon && judged.test(sentence))) return false;
  if (isNotAChoice(sentence) || deliberating.test(sentence)) return false;
  if (explicit.test(sentence) || clarifying.test(sentence)) return true;
  if (looking.test(sentence)) return false;
  if (colon && unnamedChoice.test(sentence) && !/\bgo(?:ing)? with\b/i.test(sentence)) return false;
  if (statedChoice.test(sentence)) return !judged.test(sentence);
  if (namedItself.test(sentence)) return true;
  const planVerb = planOf.exec(sentence)?.[1];
  if (planVerb !== undefined && doingAnyForm.test(planVerb) && !bareLook.test(planVerb)) return true;
  if (bareChoice(sentence)) return true;
  const after = soThen.exec(sentence)?.[1];
  if (after !== undefined && doing.test(after) && !isStep(after) && !processStep.test(after)) return true;
  if (pastOfDoing(sentence) && choiceWord.test(sentence)) return true;
  if (!actor.test(sentence) || processStep.test(sentence)) return false;
  if (alternative.test(sentence)) return true;
  if (!doing.test(sentence) && !doingNow(sentence)) return false;
  if (choiceWord.test(sentence)) return true;
  return rationale.test(sentence) && !lookPurpose.test(sentence);
}

/** An obligation the limitation imposes: "I need to rewrite it with...". */
const needTo = /\b(?:I|we) (?:will |'ll )?need to\b/i;
/** How the change is made: with something, inline, instead, by doing something. */
const manner = /\b(?:with|using|via|inline|instead|rather|by \w+ing|as an?)\b/i;

/**
 * "X doesn't support Y. I need to rewrite it with Z.": a change of approach whose reason is the sentence before.
 * The change must say how it is made (with, using, inline, instead...), so "The file is missing. Let me create it."
 * stays a step.
 */
export function isDecisionAfter(sentence: string, previous: string | undefined): boolean {
  if (!previous || !limitation.test(previous) || /\?$/.test(previous)) return false;
  if (isNotAChoice(sentence)) return false;
  if (!(actor.test(sentence) || needTo.test(sentence)) || looking.test(sentence)) return false;
  return doing.test(sentence) && manner.test(sentence);
}
