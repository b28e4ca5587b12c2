import {
  actor,
  alternative,
  choiceWord,
  clarifying,
  keptAsIs,
  namedSwap,
  explicit,
  namedItself,
  pastOfDoing,
  planOf,
  statedChoice,
} from './choice-signs.js';
import { doing, doingAnyForm, doingNow, opensWithDoing } from './doing-verbs.js';
import {
  actorLooks,
  bareLook,
  isStep,
  lookPurpose,
  looking,
  opensWithLook,
  processStep,
} from './looks-and-steps.js';
import { announcesFragment, deliberating, isNotAChoice, judged, unnamedChoice } from './not-choices.js';
import { choiceAfterSo, limitation, rationale, soDoingNow } from './reason-shapes.js';
import { chosenAmongOptions, designStated, recommends, statesWayTaken, wayOverOther } from './ways-taken.js';
import { restraint, scoped } from './restraint.js';

/**
 * How agents state a choice. A decision needs the agent as the one choosing (I'll, let me, we'll, the fix is...),
 * a verb that changes or builds something (not looking, reading, checking), and a sign of choice: a rationale
 * (because, since, so that...) or a word of choice (instead, rather than, dedicated, fall back, skip...).
 * Explicit statements ("I decided", "going with"), a recommendation and a way taken (ways-taken.ts) count on their
 * own.
 */

/** "Pulling the logic into its own struct so ...", "Skip the deprecated copies for now since ...": no actor named. */
const bareStart = /^([\w-]+)/;
const forNow = /\bfor (?:now|later)\b|\buntil\b/i;
function bareChoice(sentence: string): boolean {
  const verb = bareStart.exec(sentence)?.[1] ?? '';
  if (!opensWithDoing(sentence) || bareLook.test(verb) || /^(?:using|adding|creating)$/i.test(verb))
    return false;
  if (
    /^(?:skip|defer|omit|postpone|drop|leave)/i.test(verb) &&
    (rationale.test(sentence) || forNow.test(sentence))
  )
    return true;
  if (keptAsIs.test(sentence)) return true;
  if (/ing$/i.test(verb))
    return choiceWord.test(sentence) || (rationale.test(sentence) && !lookPurpose.test(sentence));
  // an order of the agent's own, with the way set aside: "Serve the folder over HTTP instead of opening the file"
  return alternative.test(sentence);
}

/**
 * "To avoid N+1 queries, I'll prefetch the authors ...": the verb right after the agent names itself, whatever it is,
 * unless it talks, goes on, looks or only edits (update, fix, change: a step until a reason or an alternative makes it
 * a choice, as for the verbs of `doing`).
 */
const actorVerb =
  /(?:^going to|\b(?:I'll|I will|we'll|we will|let me|let's|I'm going to|we're going to))\s+(?:(?:also|now|just|then|first|instead|simply)\s+)?([a-z][a-z-]+)\b/i;
const notActing =
  /^(?:be|have|do|get|go|need|want|think|help|note|explain|describe|mention|summari[sz]e|know|say|tell|ask|answer|respond|reply|start|begin|continue|proceed|finish|wrap|attempt|work|focus|give|provide|show|hand|report|share|walk|outline|present|sketch|plan|consider|propose|suggest|recommend|come|take|tidy|clean|update|fix|modify|adjust|change|edit|tweak|address|tackle|double|quickly|carefully|actually|probably|likely|definitely|still|make)$/i;
const actsOpenly = (sentence: string) => {
  const verb = actorVerb.exec(sentence)?.[1];
  return verb !== undefined && !notActing.test(verb) && !bareLook.test(verb);
};

/**
 * Verbs that choose a way by themselves, over the one a reader would assume: amend rather than add a commit, revert
 * rather than fix forward, pin or downgrade rather than float, disable or stub rather than make it work. "Now let me
 * amend the commit with the test fixes" is a choice with no reason or alternative said.
 */
const choosingVerb =
  /^(?:revert|amend|squash|force-push|pin|downgrade|disable|suppress|silence|stub|mock|hardcode|hard-code|vendor|bypass)$/i;

/**
 * A sentence that opens with why or with the way set aside, then says what is done, whoever does it: "To avoid
 * breaking existing users, the new flag defaults to off", "Instead of mocking the filesystem, the tests use a temp
 * directory". The clause after the comma must change or build something, and not be a look or a step.
 */
const reasonFirst =
  /^(?:to (?:avoid|keep|prevent|ensure|preserve|stay|support|reduce)|instead of|rather than)\b[^,]{3,100}, (.{8,})$/i;
const statement =
  /^(?:(?:the|a|an|this|that|these|those|it|its|we|I|they|our|my|each|every|all|both)\b|[`'"]|[A-Z][\w.-]*\s+(?!the\b))/;
function choiceAfterReason(sentence: string): boolean {
  const clause = reasonFirst.exec(sentence)?.[1];
  if (clause === undefined || isStep(clause) || looking.test(clause)) return false;
  if (doingAnyForm.test(clause)) return true;
  // the way set aside makes a statement a choice, whatever its verb ("Rather than mocking S3, the tests run against
  // MinIO"); an order in a plan ("Instead of one file, iterate over all of them") is a step of that plan
  return /^(?:instead of|rather than)\b/i.test(sentence) && statement.test(clause);
}

/**
 * A choice reported done, with its reason: "Switched the parser to streaming since the files are several GB", "I
 * kept the old endpoint because clients still call it", "I didn't add a cache, since the query takes 4 ms". The
 * verbs are those of choosing a way (not "updated", "fixed", "added"), or a change of doing left undone on purpose.
 */
const pastChoiceVerb =
  /^(?:(?:so |then )?(?:I|we)(?:'ve| have)? )?(?:switched|kept|replaced|moved|dropped|skipped|avoided|deferred|left|pinned|capped|limited|chose|picked|preferred|opted|disabled|inlined|stuck)\b/i;
/** "No need for a cache since the query takes 4 ms", "It's not worth adding a cache; ...": a change set aside, and why. */
const setAsideWithReason =
  /^(?:there's |there is |so )?no need (?:for|to) (.{3,80}?)(?:,? (?:since|because|as)\b|;)|^it(?:'s| is) not worth (.{3,80}?)(?:,? (?:since|because|as)\b|;)/i;
function notNeeded(sentence: string): boolean {
  const m = setAsideWithReason.exec(sentence);
  const what = m?.[1] ?? m?.[2];
  // a thing ("no need for a cache") or a change ("no need to add ..."), not a feeling ("no need to worry")
  return (
    what !== undefined &&
    (/^no need for\b/i.test(sentence.replace(/^(?:there's |there is |so )/i, '')) ||
      doingAnyForm.test(what)) &&
    !opensWithLook(what) &&
    !/\b(?:re-?run\w*|test\w*|check\w*|wait\w*|commit\w*|push\w*|ask\w*)\b/i.test(what)
  );
}

/** "Implemented the cache with an LRU map because ...": what was built, the means it was built with, and why. */
const builtWith =
  /^(?:(?:I|we)(?:'ve| have)? )?(?:implemented|built|rebuilt|rewrote|reimplemented)\b.{3,60}?\b(?:with|using|via|on top of)\b/i;
/** Steps reported with those verbs: "kept going", "moved on", "switched to the branch", "left a comment", cleanup. */
const reportedStep =
  /\b(?:kept (?:[\w-]+ ){0,3}(?:going|working|looking|trying|waiting|running)|moved on|switched (?:back )?to (?:the )?(?:[\w/.-]+ )?(?:branch|main|master|worktree|directory|folder)\b|left (?:a |an )?(?:comment|note|review|message|reply)\b|debug|no longer (?:needed|used)|temporary|leftover|scratch)/i;
const leftUndone = /\b(?:I|we) (?:didn't|did not|won't|will not)\s+(?:bother to\s+)?(\w+)\b/i;
/**
 * "Added Auth::setup() so users can inject their own store", "Extended the store API ..., so in-memory stores can
 * broadcast changes": a piece of design reported with what it lets its users do or keeps true (not "so we can see").
 */
const builtFor =
  /^(?:(?:I|we)(?:'ve| have)? )?(?:added|extended|introduced|exposed|extracted|wrapped|gated|split)\b.{3,}?,? so (?:that )?(?!(?:we|I|you)\b)(?:[\w`'-]+ ){1,3}(?:can|can't|cannot|stays?|keeps?|only|never|no longer|plugs?|drives?|owns?)\b/i;
function reportedChoice(sentence: string): boolean {
  if (builtFor.test(sentence) && !lookPurpose.test(sentence)) return !reportedStep.test(sentence);
  if (!rationale.test(sentence) || lookPurpose.test(sentence)) return false;
  if (pastChoiceVerb.test(sentence) || builtWith.test(sentence)) return !reportedStep.test(sentence);
  const undone = leftUndone.exec(sentence)?.[1];
  return undone !== undefined && doingAnyForm.test(undone) && !bareLook.test(undone);
}

/** An obligation the limitation imposes: "I need to rewrite it with...". */
const needTo = /\b(?:I|we) (?:will |'ll )?need to\b/i;

export function isDecision(text: string): boolean {
  const colon = text.endsWith(':');
  const sentence = colon ? text.slice(0, -1).trimEnd() : text;
  if (recommends(sentence)) return true;
  if (announcesFragment(text) || (colon && judged.test(sentence))) return false;
  if (isNotAChoice(sentence) || deliberating.test(sentence)) return false;
  if (explicit.test(sentence) || clarifying.test(sentence)) return true;
  if (statesWayTaken(sentence)) return true;
  if (restraint(sentence)) return true;
  if ((scoped(sentence) || soDoingNow(sentence)) && !looking.test(sentence) && !actorLooks(sentence))
    return true;
  if (looking.test(sentence) || processStep.test(sentence)) return false;
  if (colon && unnamedChoice.test(sentence) && !/\bgo(?:ing)? with\b/i.test(sentence)) return false;
  if (statedChoice.test(sentence)) return !judged.test(sentence);
  if (namedItself.test(sentence)) return true;
  const planVerb = planOf.exec(sentence)?.[1];
  if (planVerb !== undefined && doingAnyForm.test(planVerb) && !bareLook.test(planVerb)) return true;
  if (bareChoice(sentence)) return true;
  const after = choiceAfterSo(sentence);
  if (after !== undefined && doing.test(after) && !isStep(after)) return true;
  if (pastOfDoing(sentence) && choiceWord.test(sentence)) return true;
  if (reportedChoice(sentence)) return true;
  if (notNeeded(sentence)) return true;
  // "I need to change `--extra dev` to `--group dev`": an obligation that names the way set aside
  if (needTo.test(sentence) && namedSwap.test(sentence)) return true;
  if (choiceAfterReason(sentence)) return true;
  if (wayOverOther(sentence) || chosenAmongOptions(sentence)) return true;
  if (designStated(sentence, rationale.test(sentence) && !lookPurpose.test(sentence))) return true;
  if (choosingVerb.test(actorVerb.exec(sentence)?.[1] ?? '')) return true;
  if (!actor.test(sentence)) return false;
  // "..., I'm running the gate to see the error instead of guessing": the other way of a look is a look too
  if (alternative.test(sentence)) return !actorLooks(sentence);
  const ofDoing = doing.test(sentence) || doingNow(sentence);
  if (!ofDoing && !actsOpenly(sentence)) return false;
  if (choiceWord.test(sentence) || keptAsIs.test(sentence)) return true;
  const reason = rationale.exec(sentence);
  if (!reason || lookPurpose.test(sentence)) return false;
  // after a verb outside the list, "as the admin user" says how, not why
  return ofDoing || !/^as\b/i.test(reason[0].trim());
}

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
