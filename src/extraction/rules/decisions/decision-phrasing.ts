import type { DecisionType } from '../../../core/schemas/records.js';

type Kind = (typeof DecisionType.options)[number];

/**
 * How agents state a choice. A decision needs the agent as the one choosing (I'll, let me, we'll, the fix is...),
 * a verb that changes or builds something (not looking, reading, checking), and a sign of choice: a rationale
 * (because, since, so that...) or a word of choice (instead, rather than, dedicated, fall back, skip...).
 * Explicit statements ("I decided", "going with") count on their own.
 */

/** The agent (or the plan it states) is the one choosing. */
const actor =
  /\b(I'll|I will|I'm going to|I am going to|I'm \w+ing|I am \w+ing|I'd (?:rather|go|use|prefer|recommend)|I've decided|I decided|I chose|I opted|I went with|I prefer|I should|let me|let's|we'll|we will|we should)\b|\bit makes (?:more )?sense to\b|\bgoing with\b|\bopting for\b/i;

/**
 * A stated fix, plan or best way ("The fix is to...", "The lightest-weight approach for Go is to use..."): a decision
 * on its own. The noun may carry two qualifiers before it and a short "for X" after it; "the current design is"
 * describes what exists.
 */
const statedChoice =
  /\b(?:the|my|our) (?:(?!current |existing |old |previous |original |default )[\w-]+ ){0,2}(?:fix|plan|approach|solution|choice|option|way|setup|strategy|design)(?: I(?:'d|'ll| will) (?:try|use|take|pick|go with))?(?: (?:for|in|with) [\w`'./-]+(?: [\w`'./-]+)?)?(?: here| then| now)? (?:is|will be|would be)\b(?! (?:to )?(?:check|see|look|find|understand)\b| (?:now )?(?:committed|pushed|merged|done|in place|applied|complete|working|ready|live|documented|described|defined|outlined|saved|written|explained)\b)|\b(?:is|seems|looks like) (?:a|the) (?:perfect|good|great|natural|better|right|best) (?:use case|fit|choice|candidate|option|approach|place|call)\b|^(?:the )?(?:best|cleanest|safest|right) (?:option|approach|choice|fix|way)(?: here)? is\b/i;

/** Verbs of doing (building, changing, choosing), not of looking (`doingAnyForm` also reads them as -s, -ed, -ing). */
const doingVerbs =
  'use|create|add|stop|serve|omit|pull .{1,40}? (?:into|out of)|clean up|delete|convert|port|migrate|rewrite|simplify|consolidate|centrali[sz]e|generate|configure|enable|disable|upgrade|downgrade|bump|revert|install|implement|put|move|keep|split|extract|replace|switch|skip|defer|remove|wrap|write|set|make|apply|treat|handle|go with|stick|adopt|restructure|rename|bypass|fall back|drop|pin|limit|scope|return|commit|amend|leave|ignore|delegate|launch|reuse|extend|introduce|mark|store|track|cache|inject|patch|refactor|proceed|codify|tighten|match|follow|choose|pick|prefer|interpret|assume|retry|wait|start with|begin with|force|suppress|silence|raise|lower|increase|reduce|shorten|bound|cap|guard|catch|normali[sz]e|escape|filter|trim|pass|inline|recompile|rebuild|regenerate|reset|close|allow|block|require|default|fall through|short-circuit|isolate|open(?:ing)? (?:a |the )?(?:pr|pull request|draft)';
const inflect = (v: string) => {
  const [head = v, ...rest] = v.split(' ');
  if (head.includes('[')) return [v];
  const tail = rest.length ? ` ${rest.join(' ')}` : '';
  const stem = head.replace(/e$/, '');
  const doubled = /[^aeiou][aeiou][bdgmnpt]$/.test(head) ? head + head.slice(-1) : head;
  const ied = head.replace(/([^aeiou])y$/, '$1ied');
  return [
    ...new Set([head, `${head}s`, `${stem}ed`, `${stem}ing`, `${doubled}ing`, `${doubled}ed`, ied]),
  ].map((f) => f + tail);
};
const doing = new RegExp(
  `\\b(?:${doingVerbs}|using|creating|adding|cleaning up|keeping|skipping|falling back|run .{0,30} with)\\b`,
  'i',
);
/** The same verbs in any form ("I've applied", "try setting"): for a change stated right after its cause. */
export const doingAnyForm = new RegExp(`\\b(?:${doingVerbs.split('|').flatMap(inflect).join('|')})\\b`, 'i');

/** "I'm tightening the Rust test as well so ...": the agent's present action, its verb one of doing. */
const progressive = /\b(?:I'm|I am|we're|we are) (?:also |now |just |then )?(\w+ing)\b/i;
/** The sentence goes on with a verb of doing, in any form ("pulling the logic into ..."). */
const opensWithDoing = (text: string) => doingAnyForm.exec(text)?.index === 0;
const doingNow = (sentence: string) => {
  const m = progressive.exec(sentence);
  return m?.[1] !== undefined && opensWithDoing(sentence.slice(m.index + m[0].length - m[1].length));
};

/** Verbs of looking and process: "let me check X since Y" is a step, not a decision. */
const lookingVerbs =
  'check|read|look|see|search|find|verify|examine|inspect|explore|investigate|review|confirm|test|understand|analy[sz]e|grep|open(?! (?:a |the )?(?:pr|pull request|draft|issue)\\b)|view|get|fetch|list|count|compare|validate|try|debug|trace|figure|locate|identify|study|print|show|dig|take a look|double-check|summari[sz]e|watch|wait|poll|rerun|re-run|retry|inspect|map|narrow|gather|collect|scan|query|diagnose|reproduce|measure|time|monitor';
const lookingIng =
  'checking|reading|looking|searching|finding|verifying|examining|inspecting|exploring|investigating|reviewing|confirming|testing|analy[sz]ing|opening(?! (?:a |the )?(?:pr|pull request|draft|issue)\\b)|viewing|getting|fetching|listing|comparing|validating|trying|debugging|tracing|locating|identifying|studying|printing|digging|watching|waiting|polling|rerunning|running|narrowing|gathering|collecting|scanning|querying|diagnosing|reproducing|measuring|timing|monitoring|doing|continuing|starting|at|now';
export const looking = new RegExp(
  `^(?:now,? |first,? |next,? |then,? |ok,? |okay,? |good,? |great,? |perfect!? ?|excellent!? ?|so,? )*(?:(?:let me|I'll|I will|I need to|I should|let's)\\s+(?:also |now |first |quickly |just |then )?(?:${lookingVerbs}|run\\b.{0,40}\\b(?:tests?|lint|build|typecheck|check|format|suite|ci)|update (?:the|my) (?:todo|task)|mark|clear the todo)|(?:I'm|I am)\\s+(?:also |now |first |just )?(?:${lookingIng}))\\b`,
  'i',
);

/** A reason given in the same sentence. */
export const rationale =
  /(?:\b(?:because|since|so that|so we|so it|given that|as (?:it|this|that|the|they|there|we|I)\b(?! (?:is|was|are|stands)\s*[.,;)]?\s*$)|due to|to avoid|to keep|to make sure|to ensure|to prevent|otherwise|so (?:the |our |current |existing |all |any |both )?[\w-]+(?: [\w-]+){0,3} (?:doesn't|does not|don't|do not|won't|can't|cannot|stays?|keeps?|remains?|never|comes? from|share)|which (?:avoids|keeps|means|matches|follows|(?:\w+ ){0,3}(?:doesn't|does not|can't|cannot|won't|will fail|isn't|is not)))\b|\s[—–]\s(?=it's|it is|they're|this is|that's|it (?:keeps|avoids|lets|means|makes|gives|saves)\b)|;\s(?=(?:it|this|that|they) (?:has|have) (?:grown|become|gotten)\b)|\(?(?=per (?:the|this|our|your|its|their) (?:[\w'-]+ ){0,3}(?:policy|convention|guidelines?|rules?|instructions?|requirements?)\b))\s*(.*)$/i;

/**
 * Words that mark a choice even without a reason: an alternative named (instead, rather than, over, fall back), a
 * deliberate choice (prefer, opt for, go with, skip, out of scope, a separate or dedicated place, tests first).
 */
export const choiceWord =
  /\b(instead|rather than|(?<!all )over the|prefer|(?:an?|the|this|that) (?:[\w-]+ ){0,2}approach|opt(?:ed|ing)? for|choose|chose|go with|(?<!keep )going with|(?:separate|dedicated|(?:its|their) own) (?:[\w-]+ )?(?:struct|component|hook|crate|file|module|function|helper|class|layer|document|step|commit|pr|package|service|type|table|endpoint)|specifically for|(?:failing tests?|tests?|expected behaviou?r) first|test[- ]first|fall(?:ing)? back|workaround|work around|skip|defer|omit|not (?:going to|worth)|out of scope|deliberately|interpret|assum(?:e|ing)|as (?:a|the) (?:fallback|workaround))\b/i;

/** Explicit decisions: enough on their own. */
const explicit =
  /\b(I(?:'ve)? decided|we(?:'ve)? decided|^decided to|I chose|I opted|I went with|(?<!keep )going with|(?:I'm|we're|I am|we are) switching (?:to|over to|from)|(?:I|we)(?:'m|'re| am| are|'ve| have)? settl(?:ing|ed) on|the (?:plan|decision) is(?! (?:saved|ready|done|complete|approved|written|in|at|now|documented|described|below|above)\b)|^(?:selected|chosen) [\w -]{1,40}? (?:is|are)|I(?:'ve)? (?:selected|picked))\b|^decision(?: is| was)?:/i;

/** Sentences that are not choices: questions, conditions, status reports, announcements of tools and skills. */
export const notAChoice = [
  /\?$/,
  /^(?:if|when|once|whether|unless)\b/i,
  /^(?:this|that|it|the \w+) (?:is|was|are|were|has|have) (?:now |already |been )?(?:done|complete|fixed|updated|added|created|in place|passing|green|working)\b/i,
  /\bI'm using (?:the )?[`\w:-]+(?: \w+)? (?:skill|workflow)\b|\busing `?[\w-]+:[\w-]+`? (?:briefly )?because\b/i,
  /^(?:I|we) (?:can|could|might|may)\b/i,
  /^(?:but|however),? (?:since|because|as)\b[^,]*,\s*(?:maybe|perhaps)\b/i,
];

/**
 * A sentence ending in a colon announces what follows. It is a fragment when the clause stops short ("The best
 * approach is to:", "Here's what I'll add:") or only judges ("Now the solution is much cleaner:"); a whole clause
 * that says what is done ("The fix is to set a timeout in the config:") still states the choice.
 */
export const fragment =
  /(?:\b(?:is|are|was|be|to|as|the|a|an|of|for|with|that|this|these|following|follows|below|here|thought|steps|changes|what I'll \w+|what we need|do)|\bhere's \w+(?: \w+)?|[^\w`)'"])$/i;

/** How agents settle what an ambiguous request means. */
const clarifying =
  /\b(?:this|that|your request|the request|it) (?:likely |probably |most likely )?means (?:\w+ing|that (?:we|I|you) (?:should|want))\b|\bI'(?:m| am) (?:treating|reading|interpreting|taking) .{3,120}? as\b|\bI(?:'ll| will) (?:assume|interpret|read (?:this|it|that) as|take (?:this|it|that) to mean)\b|\binterpret(?:ed|ing)? .{3,80}? as\b/i;

/** "The design is now much cleaner." judges a change made; it is a decision only when it goes on to say what. */
const judged =
  /\b(?:is|are|looks|seems)(?: now)?(?: much| a lot| far)? (?:cleaner|simpler|better|nicer|good|done|complete|ready|working|correct|fine|right|straightforward|simple|clear|easy|obvious|trivial)\b(?![^.!]*(?::|\s[-–—]\s))/i;
const deliberating = /\b(?:weighing|considering|wondering|deciding|not sure) (?:whether|if|how|between)\b/i;

/** "Now I'll use a different approach for the parser:" announces a choice the colon's list names, not this sentence. */
const unnamedChoice =
  /\b(?:a|an|the|this|that|another)\s+(?:[\w-]+ ){0,2}(?:approach|way|fix|solution|plan|strategy|option|method)(?: (?:for|to|in|on|with) [\w`'./ -]{1,40})?$/i;

/** A purpose of looking: "so we can see which branch is taken". */
export const lookPurpose =
  /\bso (?:that )?(?:we|I|you) (?:can|could) (?:see|check|verify|diff|trace|debug|inspect|compare|confirm|test|find|tell|read)\b|\bto (?:make sure|ensure|confirm|verify|check) (?:that )?(?:everything|it all|all|things|it|they|the (?:[\w-]+ )?(?:build|code|project|tests?|files?))\b.{0,20}\b(?:compiles?|builds?|pass(?:es)?|works?|runs?|is clean)\b/i;
/** Steps that are never choices, whatever reason comes with them: committing, going on, tests, logging, tools. */
export const processStep =
  /^(?:now,? |ok,? |okay,? |then,? |first,? )*(?:let me|let's|I'll|I will|I should|we should|I'm going to|I'm|I am)\s+(?:also |now |just |then |first |go ahead and )?(?:commit|push|keep going|continue|proceed|move on|add(?:ing)? (?:a |some |an? )?(?:\w+ )?(?:tests?|debug\w*|log(?:ging| line)?|print\w*|console\.log)|use (?:the )?\w+ (?:tool|command)|use (?:grep|rg|find|sed|awk|jq)|remov\w* (?:the )?debug)\b/i;
/** An item of a list that only looks or runs ("Read the existing exporter", "Check the failing test output"). */
const bareLook = new RegExp(`^(?:${lookingVerbs}|run|re-?run|commit|push)\\b`, 'i');
/** A look or a step of the process, with or without the agent named: never a choice on its own. */
export const isStep = (text: string) =>
  looking.test(text) || processStep.test(text) || bareLook.test(text) || lookPurpose.test(text);

/**
 * A choice that names itself whatever its verb: an alternative set against it (one named thing for another: "I'm
 * replacing `moment` with `date-fns`"; "Rather than mocking X, I'm going to
 * run ...", "I'll do the parsing in Python instead"), a bare "Chose ..." or "Plan: <change>",
 * "Using X keeps ...", "let's not ...".
 */
const alternative =
  /\b(?:instead\b|rather than|in favou?r of)|\blet'?s not\b|\b(?:replac(?:e|ing)|swap(?:ping)?) `[^`]{1,60}` (?:with|for) `/i;
const namedItself =
  /^(?:chose|picked|opted for|went with)\b|^using .{3,60}? (?:keeps|lets|avoids|means|makes|gives)\b/i;
const planOf = /^plan:\s+(\w+)/i;

/** "I kept it deliberately short since ...": a past choice, its verb one of doing, with a sign of choice. */
const pastChoice =
  /\b(?:I|we)(?:'ve| have)? (?:deliberately |intentionally |also )?(kept|made|left|put|wrote|split|set|built|chose|took|\w+ed)\b/i;
const pastOfDoing = (sentence: string) => {
  const verb = pastChoice.exec(sentence)?.[1];
  return (
    verb !== undefined &&
    (/^(?:kept|made|left|put|wrote|split|set|built|chose|took)$/i.test(verb) || doingAnyForm.test(verb))
  );
};
/** "X is minimal, so I'll go with option 1": the reason stated before the choice, which is not itself a step. */
const soThen = /\S.{10,}?,?\s+so (?=(?:I'll|I will|we'll|let's|I'm going to|I am going to)\s)(.+)$/i;
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
  if (colon && (fragment.test(sentence) || judged.test(sentence))) return false;
  if (notAChoice.some((re) => re.test(sentence)) || deliberating.test(sentence)) return false;
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

/** What forces a change: a tool missing or blocked, something the agent cannot do. */
const forced =
  /\b(?:isn't|is not|aren't|are not|wasn't) (?:installed|available|exposed|reachable|allowed)\b|\b(?:unavailable|blocked|denied|missing)\b|\b(?:I|we) (?:can't|cannot|couldn't|could not)\b/i;

/** The options set aside: "instead of X", "rather than X", "chose A over X". */
export function alternativesIn(text: string): string[] | null {
  const end = String.raw`(.{1,120}?)(?=[,;:.!?)]|\s[—–-]\s|\s(?:so|because|since|as|to keep|which|and then|here)\b|$)`;
  const found = [
    ...text.matchAll(new RegExp(String.raw`\b(?:instead of|rather than)\s+` + end, 'gi')),
    ...text.matchAll(
      new RegExp(
        String.raw`\b(?:choos\w*|chose|picked|prefer\w*|going with|go with|opt\w* for)\s.{1,60}?\sover\s+` +
          end,
        'gi',
      ),
    ),
  ].map((m) => (m[1] ?? '').trim());
  return found.length ? found : null;
}

/** A sentence stating what does not work or is missing: the reason for the change the next sentence makes. */
const limitation =
  /\b(?:doesn't|does not|don't|do not|can't|cannot|won't|isn't|is not|aren't|are not) (?:\w+ )?(?:support|work|render|handle|allow|exist|accept|available|configured|compatible|supported|allowed|exposed)|\bwill fail\b|\bnot (?:supported|available|configured|compatible|allowed)\b/i;
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
  if (notAChoice.some((re) => re.test(sentence))) return false;
  if (!(actor.test(sentence) || needTo.test(sentence)) || looking.test(sentence)) return false;
  return doing.test(sentence) && manner.test(sentence);
}

/**
 * The type of a change made because of what its cause sentence says: a limitation of the tools or environment
 * ("SQLite doesn't support", "were blocked by the browser policy", "I couldn't") makes it a workaround, unless its
 * own words say skip or clarification; a bug's cause leaves it to the words.
 */
export function typeAfterCause(cause: string, sentence: string): Kind {
  const kind = decisionType(`${cause} ${sentence}`);
  const limited =
    limitation.test(cause) ||
    /\b(?:I|we) (?:couldn't|could not|can't|cannot|wasn't able to|was unable to)\b|\b(?:blocked|denied|not permitted)\b/i.test(
      cause,
    );
  return limited && (kind === 'approach' || kind === 'library' || kind === 'architecture')
    ? 'workaround'
    : kind;
}

/** Amelia's six types, from the words of the sentence. */
export function decisionType(sentence: string): Kind {
  if (
    clarifying.test(sentence) ||
    /\b(interpret|assum(?:e|ing)|take (?:it|this) to mean|understood as)\b/i.test(sentence)
  )
    return 'clarification';
  if (
    /\b(skip|ignor(?:e|ing)|defer|leave .{0,30} for later|out of scope|not (?:going to|worth)|leave (?:it|this|that) to)\b/i.test(
      sentence,
    )
  )
    return 'skip';
  if (
    /\b(fall(?:ing)? back|workaround|work around|not (?:exposed|available|supported|possible)|since .{0,40}(?:isn't|is not|aren't|are not|can't|cannot|doesn't|does not))\b/i.test(
      sentence,
    ) ||
    // an alternative set aside is a workaround only when a limitation forced it
    (/\b(?:instead|rather than)\b/i.test(sentence) && (limitation.test(sentence) || forced.test(sentence)))
  )
    return 'workaround';
  if (
    /\b(library|package|crate|module from|dependency|framework|sdk)\b|\b(?:use|using|adopt|with) (?:the )?`?[\w@/.-]+`? (?:library|package|crate|tool)\b/i.test(
      sentence,
    )
  )
    return 'library';
  if (
    /\b(dedicated|separate (?:file|module|layer|function|helper|class)|new (?:file|module|layer|class)|thin wrapper|abstraction|interface|in both|both (?:[\w-]+ ){0,3}(?:paths|places|adapters|modules|layers|files|sides|callers)|split|extract|agent-agnostic|layer)\b/i.test(
      sentence,
    )
  )
    return 'architecture';
  return 'approach';
}
