import { native } from '../native-regexp.js';

/**
 * Looks and steps of the process: reading, checking, running tests, committing. However it is worded, a look or a
 * step is never a choice on its own.
 */

/** Verbs of looking and process: "let me check X since Y" is a step, not a decision. */
const lookingVerbs =
  'check|read|look|see|search|find|verify|examine|inspect|explore|investigate|review|confirm|test|understand|analy[sz]e|grep|open(?! (?:a |the )?(?:pr|pull request|draft|issue)\\b)|view|get|fetch|list|count|compare|validate|try|debug|trace|figure|locate|identify|study|print|show|dig|take a look|double-check|summari[sz]e|watch|wait|poll|rerun|re-run|retry|inspect|map|narrow|gather|collect|scan|query|diagnose|reproduce|measure|time|monitor';
const lookingIng =
  'checking|reading|looking|searching|finding|verifying|examining|inspecting|exploring|investigating|reviewing|confirming|testing|analy[sz]ing|opening(?! (?:a |the )?(?:pr|pull request|draft|issue)\\b)|viewing|getting|fetching|listing|comparing|validating|trying|debugging|tracing|locating|identifying|studying|printing|digging|watching|waiting|polling|rerunning|running|narrowing|gathering|collecting|scanning|querying|diagnosing|reproducing|measuring|timing|monitoring|doing|continuing|starting|at|now';
export const looking = native(
  new RegExp(
    `^(?:now,? |first,? |next,? |then,? |ok,? |okay,? |good,? |great,? |perfect!? ?|excellent!? ?|so,? )*(?:(?:let me|I'll|I will|I need to|I should|let's)\\s+(?:also |now |first |quickly |just |then )?(?:${lookingVerbs}|run\\b.{0,40}\\b(?:tests?|lint|build|typecheck|check|format|suite|ci)|update (?:the|my) (?:todo|task)|mark|clear the todo)|(?:I'm|I am)\\s+(?:also |now |first |just )?(?:${lookingIng}))\\b`,
    'i',
  ),
);

/** A purpose of looking: "so we can see which branch is taken". */
export const lookPurpose = native(
  /\bso (?:that )?(?:we|I|you) (?:can|could) (?:see|check|verify|diff|trace|debug|inspect|compare|confirm|test|find|tell|read|reproduce|run|measure|profile|print|log|watch|observe|look|try|use|play)\b|\bto (?:make sure|ensure|confirm|verify|check) (?:that )?(?:everything|it all|all|things|it|they|the (?:[\w-]+ )?(?:build|code|project|tests?|files?))\b.{0,20}\b(?:compiles?|builds?|pass(?:es)?|works?|runs?|is clean)\b/i,
);
/**
 * Steps that are never choices, whatever reason comes with them: committing, going on, tests, logging, tools, running a
 * command, clearing away what is no longer needed.
 */
export const processStep = native(
  /^(?:now,? |ok,? |okay,? |then,? |first,? )*(?:let me|let's|I'll|I will|I should|we should|I'm going to|I'm|I am)\s+(?:also |now |just |then |first |go ahead and )?(?:commit|push|(?:un)?stage|keep going|continue|proceed|move on|add(?:ing)? (?:a |some |an? )?(?:\w+ )?(?:tests?|debug\w*|log(?:ging| line)?|print\w*|console\.log)|use (?:the )?\w+ (?:tool|command)|use (?:grep|rg|find|sed|awk|jq)|remov\w* (?:the )?debug|run `[^`]+`|(?:remove|delete|clean up|tidy up)\b.{0,90}\b(?:no longer (?:needed|used)|temporary|leftover|unused|scratch)\b)/i,
);
/** An item of a list that only looks or runs ("Read the existing exporter", "Check the failing test output"). */
export const bareLook = new RegExp(`^(?:${lookingVerbs}|run|re-?run|commit|push)\\b`, 'i');
/**
 * "Since the tests passed, I'm running the gate directly to see the error": the first verb the agent gives itself,
 * wherever the sentence names it, is a look.
 */
const firstActor =
  /\b(?:let me|let's|I'll|I will|I'm going to|I am going to|I'm|I am)\s+(?:(?:also|now|first|just|then|quickly)\s+)*(?=[a-z])/i;
const lookAhead = native(new RegExp(`^(?:just |simply )?(?:${lookingVerbs}|${lookingIng})\\b`, 'i'));
/** Whether what follows ("search the log", "running the suite") opens with a look: the rest of a clause, a verb. */
export const opensWithLook = (rest: string) => lookAhead.test(rest.trimStart());
export const actorLooks = (text: string) => {
  const actor = firstActor.exec(text);
  return actor !== null && opensWithLook(text.slice(actor.index + actor[0].length));
};

/** A look or a step of the process, with or without the agent named: never a choice on its own. */
export const isStep = (text: string) =>
  looking.test(text) ||
  processStep.test(text) ||
  bareLook.test(text) ||
  lookPurpose.test(text) ||
  actorLooks(text);
