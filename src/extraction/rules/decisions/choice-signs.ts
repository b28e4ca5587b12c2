import { doingAnyForm } from './doing-verbs.js';
import { native } from '../native-regexp.js';

/**
 * The signs of a choice: the agent as the one choosing, a stated fix or plan, a word of choice, an explicit
 * decision, a request's meaning settled, an alternative set against the choice, a past choice.
 */

/** The agent (or the plan it states) is the one choosing. */
export const actor =
  /^going to\b|\b(I'll|I will|I'm going to|I am going to|I'm not going to|I am not going to|I won't|we won't|I'm \w+ing|I am \w+ing|I(?:'d| would) (?!like\b|love\b|need\b|have\b|be\b|say\b|expect\b|guess\b|think\b|imagine\b|assume\b|check\b|look\b|verify\b)\w+|I've decided|I decided|I plan to|we plan to|I intend to|I want to|we want to|I chose|I opted|I went with|I prefer|I should|let me|let's|we'll|we will|we should)\b|\bit makes (?:more )?sense to\b|\bgoing with\b|\bopting for\b/i;

/**
 * A stated fix, plan or best way ("The fix is to...", "The lightest-weight approach for Go is to use..."): a decision
 * on its own. The noun may carry two qualifiers before it and a short "for X" after it; "the current design is"
 * describes what exists.
 */
export const statedChoice = native(
  /\b(?:the|my|our) (?:(?!current |existing |old |previous |original |default )[\w-]+ ){0,2}(?:fix|plan|approach|solution|choice|option|way|setup|strategy|design)(?: I(?:'d|'ll| will) (?:try|use|take|pick|go with))?(?: (?:for|in|with) [\w`'./-]+(?: [\w`'./-]+)?)?(?: here| then| now)? (?:is|will be|would be)\b(?! (?:to )?(?:check|see|look|find|understand)\b| (?:now )?(?:in(?=\s*(?:[.!,;]|$))|landed|committed|pushed|merged|done|in place|applied|complete|working|ready|live|documented|described|defined|outlined|saved|written|explained|explicit|clear|sound|solid|fine|good|right|correct)\b)|\b(?:is|seems|looks like) (?:a|the) (?:perfect|good|great|natural|better|right|best) (?:use case|fit|choice|candidate|option|approach|place|call)\b|\b(?:is|seems|looks like) (?:probably |clearly |definitely )?(?:the )?(?:sweet spot|way to go|best bet|right call)\b|\b(?:option|approach) [\w\d]{1,3}\b(?: \([^)]{1,40}\))? (?:feels|seems|looks|is) (?:right|best|better|preferable|like the (?:right|best|better) (?:fit|choice))\b|\bmakes (?:the )?most sense\b|\b(?:a|one) (?:practical|simple|simpler|clean|cleaner|quick|robust|reliable|minimal|safe|safer|pragmatic|better) (?:fix|solution|approach|way)(?: here)? is\b(?! (?:to )?(?:check|see|look|find|understand)\b)|^(?:the )?(?:best|cleanest|safest|right) (?:option|approach|choice|fix|way)(?: here)? is\b|^(?:the )?(?:best|cleanest|simplest|safest|easiest|right|better|safer|simpler|cleaner|easier) (?:(?:option|approach|choice|fix|way|thing|move|path|bet|route|plan|call|solution) )?(?:here |now |for now )?(?:is|would be) to\b/i,
);

/**
 * Words that mark a choice even without a reason: an alternative named (instead, rather than, over, fall back), a
 * deliberate choice (prefer, opt for, go with, skip, out of scope, a separate or dedicated place, tests first), a
 * library named as the means ("with the LittleFS library").
 */
export const choiceWord = native(
  /\b(instead|rather than|(?<!all )over the|prefer|(?:an?|the|this|that) (?:[\w-]+ ){0,2}approach|opt(?:ed|ing)? for|choose|chose|go with(?! the flow)|stick(?:ing)? with|hold(?:ing)? off on (?!(?:committing|pushing|merging|running|testing|reading|checking)\b)|(?<!(?:keep|keeps|kept|keeping) )going with|(?:separate|dedicated|(?:its|their) own) (?:[\w-]+ )?(?:struct|component|hook|crate|file|module|function|helper|class|layer|document|step|commit|pr|package|service|type|table|endpoint)|specifically for|(?:failing tests?|tests?|expected behaviou?r) first|test[- ]first|fall(?:ing)? back|workaround|avoid(?:s|ed|ing)? [^.]{3,80}? by \w+ing|work around|skip|defer|omit|not (?:going to|worth)|out of scope|deliberately|interpret|assum(?:e|ing)|as (?:a|the) (?:fallback|workaround))\b|, (?:a|the) (?:[\w-]+ ){0,4}(?:choice|option|pick|fit)\b|\bunless you(?:'d| would)? (?:rather|prefer)\b|\bfor later\b|\b(?:with|using|via|on top of) (?:the )?(?:[\w.@/+-]+ ){1,2}(?:library|crate|package|gem|framework|sdk)\b/i,
);

/**
 * What is kept as it is, or kept small: "leave the `v1` endpoint in place", "keeping the fix narrow", "we should only
 * block when ...", "commit only that file" (the change's scope, not its moment: "commit only once it passes").
 */
export const keptAsIs = native(
  /\b(?:leav(?:e|es|ing)?|left|keep(?:s|ing)?|kept)\b.{1,60}?\b(?:in place|as[- ]is|as (?:it|they) (?:is|are|stands?)|where (?:it|they) (?:is|are)|alone|untouched|unchanged|intact)\b|\b(?:keep(?:s|ing)?|kept) (?:it|them|this|that|(?:the|this|that|our) (?:[\w-]+ ){0,2}[\w-]+) around(?=\s*(?:[.,;:!]|$|until|for|while|so|in case|as))|\b(?:scop|restrict|confin)(?:e|es|ed|ing) (?:it|this|that|(?:the|this|that|my|our) (?:[\w-]+ ){0,2}[\w-]+) to\b|\bkeep(?:ing)? (?:it|this|things|(?:the|this|that|my|our) (?:[\w-]+ ){0,2}[\w-]+) (?:narrow|minimal|small|simple|focused|lean|tight|backwards?[- ]compatible|opt-in|read-only|off by default)\b|\b(?:should|will|'ll) only (?!(?:be|need|have|see|check|look|run|read)\b)[a-z]+|\b(?:smallest|minimal|narrowest) (?:possible )?(?:surgical )?(?:change|fix|diff|patch)\b|\b(?:commit|stage|push|change|touch|edit|modify|update)(?:s|ing)? only (?!(?:once|when|after|if|to|for)\b)(?:the |that |this |these |those |my |our )?[\w`'./-]/i,
);

/** Explicit decisions: enough on their own. */
export const explicit =
  /\b(I(?:'ve)? decided|we(?:'ve)? decided|^decided (?:to|against)|I chose|I opted|I went with|(?<!(?:keep|keeps|kept|keeping) )going with|(?:I'm|we're|I am|we are) switching (?:to|over to|from)|(?:I|we)(?:'m|'re| am| are|'ve| have)? settl(?:ing|ed) on|(?:I|we)(?:'ll| will) settle on|the (?:plan|decision) is(?! (?:saved|ready|done|complete|approved|written|in|at|now|documented|described|below|above|explicit|clear|sound|solid|fine|good)\b)|^(?:selected|chosen) [\w -]{1,40}? (?:is|are)|I(?:'ve)? (?:selected|picked))\b|^decision(?: is| was)?:|(?:^|,?\s)so [\w`'.-]+(?: [\w`'.-]+){0,3} it is[.!]?$/i;

/** How agents settle what an ambiguous request means. */
export const clarifying =
  /\b(?:this|that|your request|the request|it) (?:likely |probably |most likely )?means (?:\w+ing|that (?:we|I|you) (?:should|want))\b|\bI'(?:m| am) (?:treating|reading|interpreting|taking) .{3,120}? as\b|\bI(?:'ll| will) (?:assume|interpret|read (?:this|it|that) as|take (?:this|it|that) to mean)\b|\binterpret(?:ed|ing)? .{3,80}? as\b/i;

/** One named thing changed for another: "change `--extra dev` to `--group dev`", "replace `moment` with `date-fns`". */
export const namedSwap =
  /\b(?:replac(?:e|ing)|swap(?:ping)?) `[^`]{1,60}` (?:with|for) `|\bchang(?:e|ing) (?:the [\w-]+ )?`[^`]{1,60}` to `/i;
/**
 * A choice that names itself whatever its verb: an alternative set against it (one named thing for another: "I'm
 * replacing `moment` with `date-fns`"; "Rather than mocking X, I'm going to
 * run ...", "I'll do the parsing in Python instead"), a bare "Chose ..." or "Plan: <change>",
 * "Using X keeps ...", "let's not ...".
 */
export const alternative = new RegExp(
  String.raw`\b(?:instead\b|rather than|in favou?r of)|\blet'?s not\b|${namedSwap.source}`,
  'i',
);
export const namedItself =
  /^(?:chose|picked|opted for|went with)\b|^using .{3,60}? (?:keeps|lets|avoids|means|makes|gives)\b|^using .{3,80}?,? so (?:that )?(?:it|they|the [\w-]+|each [\w-]+|nothing|no [\w-]+) (?:don't|doesn't|won't|can't|cannot|never|stays?|keeps?|survives?)\b|\bit (?:makes|would make) (?:more|most) sense to (?!(?:check|look|see|read|verify|ask|wait|run|test|start|first)\b)\w+|\b(?:I|we)(?:'d| would) rather (?!not\b|be\b|ask\b|check\b|look\b|see\b|confirm\b|wait\b|verify\b)\w+|\b(?:I'll|I will|we'll|we will|let's|let me|I'm going to|I made|we made) make (?:it|this|that|them|the [\w-]+(?: [\w-]+)?) (?:opt-in|opt-out|optional|configurable|lazy|async|idempotent|private|internal|read-only|explicit|a no-op|pluggable|overridable)\b|\b(?:goes|belongs|should (?:live|go)|will (?:live|go)) (?:in|into|on|under) [^,;]{2,60}, not (?:in |into |on |under )?\S|\bmakes (?:much )?more sense than\b|\b(?:we're|we are|you're|you are|I'm|I am) better off \w+ing\b/i;
/** "Plan: switch ...", "My patch plan: write ...": a plan given under its label, its first verb. */
export const planOf = /^(?:(?:my|our|the) )?(?:[\w-]+ )?plan:\s+(\w+)/i;

/** "I kept it deliberately short since ...": a past choice, its verb one of doing, with a sign of choice. */
const pastChoice =
  /\b(?:I|we)(?:'ve| have)? (?:deliberately |intentionally |also )?(kept|made|left|put|wrote|split|set|built|chose|took|avoided|\w+ed)\b/i;
export const pastOfDoing = (sentence: string) => {
  const verb = pastChoice.exec(sentence)?.[1];
  return (
    verb !== undefined &&
    (/^(?:kept|made|left|put|wrote|split|set|built|chose|took|avoided)$/i.test(verb) ||
      doingAnyForm.test(verb))
  );
};
