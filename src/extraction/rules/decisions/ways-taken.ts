import { actor, alternative } from './choice-signs.js';
import { opensWithLook } from './looks-and-steps.js';
import { native } from '../native-regexp.js';

/**
 * Sentences that state the way taken whatever their verb, unless what they go on to do is a look: a different
 * approach and what it is, a fix by its means, a design stated as what something should do with the other way named,
 * a proposal, a recommendation, a way judged better, a change stated with the way it is made.
 */

/** "Let me try a different approach - make the column transparent", "build it another way and ...": the new way. */
const newApproach =
  /\b(?:a|an|another) (?:(?:different|new|simpler|cleaner|safer) )?(?:different|new|simpler|cleaner|safer|other) (?:approach|way|route|tack|strategy|fix)\b\s*(?:[-–—:]|,? and)\s*(\S.*)$/i;
/** "Let me fix this by updating index.html to ...": how a fix is made. */
const fixBy =
  /\bfix (?:this|it|that|the [\w-]+) by \w+ing\b|\bfix [\w`.()-]+(?: [\w`.()-]+)? to (?!(?:be|pass|work|run|make|see|check)\b)[a-z]+/i;
/** "The handler should map only X, rather than masking Y": what it should do, the other way named. */
const shouldRather = /\bshould (?:only |also |now )?(\w+\b.{3,}?\b(?:rather than|instead of)\b.*)$/i;
/** "I'd propose a MAX_BODY_BYTES variable", "I recommend using Postgres", not "I'd recommend running the suite". */
const proposed =
  /\b(?:I(?:'d| would) |I )(?:propose|suggest|recommend)\s+(?:that\s+)?(?:(?:you|we)\s+)?(\S.*)$/i;
/**
 * "Recommendation: build an oracle that:", "My recommendation is to use Postgres": a recommendation names its choice
 * (even when a list completes it), unless it only advises a check ("Recommendation: test with the proxy first").
 */
const recommended =
  /^(?:(?:my |our |final )?recommendation(?: is)?:\s*|(?:my|our) (?:recommendation|suggestion|proposal) (?:is|would be) (?:to )?)(\S+\s+\S.*)$/i;
/** "I think it's best to aim for ...", "it feels safer to edit it": a way judged better, then taken. */
const judgedBetter =
  /(?:\bit(?:'s| is| feels| seems| would be)(?: probably| definitely| much)? (?:best|safer|cleaner|simpler|better|wiser|more robust)|^(?:best|better|safer|safest)) to (?!(?:ask|wait|run|re-?run|stop|double-check|restart|reload|install|rebuild|clear|kill|start|begin|verify|test|confirm)\b)(\S.*)$/i;
/**
 * "Let me point the config at the venv python", "I'll rewrite this test to set the locked state directly", "Fixing
 * the config to use the venv python": a change stated with the way it is made (what it now uses, mirrors or points
 * at), by the agent or opening the sentence.
 */
const byWhom = String.raw`(?:^|\b(?:let me|let's|I'll|I will|we'll|we will|I'm going to)\s+(?:also |now |just |first |then )?)`;
const changedToWay = native(
  new RegExp(
    byWhom +
      String.raw`(?:(?:chang(?:e|ing)|rewrit(?:e|ing)|switch(?:ing)?|rework(?:ing)?|reconfigur(?:e|ing)|convert(?:ing)?|fix(?:ing)?|mak(?:e|ing))\b(?! (?:sure|directory|directories|dir|back|over|into|to)\b)[^.:;!?]{2,60}? to (?:use|mirror|match|follow|go through|set|read|write)\b|(?:re)?point(?:ing)? (?!(?:out|you|me|us|them|to)\b)[^.:;!?]{2,60}? at\b)`,
    'i',
  ),
);
/** "... to verify", "... to compare": a change made to look is a step. */
const toLook = /\bto (?:verify|check|see|test|confirm|compare|debug|inspect|reproduce)\b/i;

/** The clause after a sign of choice, when it is not a look. */
const doneNotLooked = (re: RegExp, sentence: string) => {
  const rest = re.exec(sentence)?.[1];
  return rest !== undefined && !opensWithLook(rest);
};

/**
 * "Yes, this is a good, low-risk fix, and I'd merge it", "I wouldn't approve this yet": a reviewer's verdict on the
 * change it read, in its own voice (a verdict it quotes from a tool or a bot is not its own).
 */
const verdict =
  /\bI(?:['’]d| would)(?: not|n['’]t)? (?:merge|approve|ship|land|accept) (?:it|this|them|the (?:PR|pull request|change|patch|branch|fix))\b/i;

/** "Recommendation: build ...": first, since a list after its colon does not make it a fragment. */
export const recommends = (sentence: string) =>
  doneNotLooked(recommended, sentence) || verdict.test(sentence);

/** A new approach, a design that should, a proposal, or a fix by its means, stated by the agent. */
export const statesWayTaken = (sentence: string) =>
  doneNotLooked(newApproach, sentence) ||
  doneNotLooked(shouldRather, sentence) ||
  doneNotLooked(proposed, sentence) ||
  doneNotLooked(judgedBetter, sentence) ||
  (changedToWay.test(sentence) && !toLook.test(sentence)) ||
  (fixBy.test(sentence) && actor.test(sentence));

/**
 * A way taken over another, said in the first person or as a bare report: "We serialize the payload with msgpack
 * instead of JSON", "I went ahead and used a mutex here rather than an atomic", "Kept the retry count at 3 instead of
 * raising it", "I'd rather regenerate the client than hand-edit it", "The fix was to debounce the handler rather than
 * throttle it". Not what the agent sees, gets or can do ("I got a 404 instead of the page", "we can use X instead"),
 * nor the other way of a look ("I checked the logs instead").
 */
const firstPerson =
  /(?:^|[,;:]\s+|\s[—–-]\s+)(?:so |and |then |here |now )?(?:I|we)(?:'ve| have)? (?:also |now |just |only |then |deliberately |intentionally |instead )?(?:went ahead and )?([a-z]+)\b/i;
const notChoosing =
  /^(?:can|could|might|may|must|would|should|will|shall|need|needed|think|thought|guess|am|was|were|are|is|do|did|does|don't|didn't|got|get|saw|see|seen|received|noticed|found|hit|expected|expect|meant|mean|want|wanted|have|had|know|knew|feel|felt|believe|ended|keep|done|been|gone|tried|let|told|asked)$/i;
const pastChoice =
  /^(?:switched|kept|moved|dropped|skipped|avoided|deferred|left|pinned|capped|limited|chose|picked|preferred|opted|disabled|inlined|stuck|went with|used|made|put|wrote|stored|built|returned|passed|replaced|split|folded|merged)\b/i;
const ratherThan = /\b(?:I|we)(?:'d| would) rather (?!not\b)[a-z]+\b.{3,100}?\bthan\b/i;
const fixWas =
  /^(?:the|my|our) (?:(?!current |existing |old |previous |original )[\w-]+ )?(?:fix|solution|workaround|approach) was to [a-z]+/i;
export function wayOverOther(sentence: string): boolean {
  if (ratherThan.test(sentence)) return true;
  if (!alternative.test(sentence)) return false;
  if (fixWas.test(sentence) || pastChoice.test(sentence)) return true;
  const verb = firstPerson.exec(sentence)?.[1];
  // a look in the past too: "checked", "traced", "identified"
  const stems = verb
    ? [verb, verb.replace(/ied$/, 'y'), verb.replace(/e?d$/, ''), verb.replace(/d$/, '')]
    : [];
  return verb !== undefined && !notChoosing.test(verb) && !stems.some(opensWithLook) && !/ing$/.test(verb);
}

/**
 * One of named options chosen: "Between Redis and an in-process LRU, the LRU is enough here", "Of the two options,
 * the second is safer because ...", "Option B it is: ...", "Both would work, but patching the serializer is the
 * smaller change, so I'll do that". The options are named or counted, and the clause after them judges one (better,
 * safer, enough, wins) or takes it; "Between the two runs, p99 dropped" judges nothing.
 */
const amongOptions =
  /^(?:between [^,]{3,80}? and [^,]{3,80}|of (?:the|these|those) (?:two|three|four|\d) (?:options|approaches|ways|fixes|choices|candidates|designs))\s*,\s*(.+)$/i;
const judgesOne =
  /\b(?:is|are|seems|looks|feels) (?:\w+ )?(?:enough|better|safer|simpler|cleaner|smaller|preferable|sufficient|the (?:better|right|safer|simpler) (?:one|fit|choice|option))\b|\bwins\b|\b(?:I'll|I will|we'll|let's|I'd) (?:go with|take|pick|use|choose)\b/i;
const itIs = /^(?:option|approach|plan|variant) [\w\d]{1,3} it is\b/i;
const smallerSoThat =
  /\b(?:is|are|seems|looks) (?:\w+ )?(?:the )?(?:smaller|simpler|safer|cleaner|less invasive|more contained|lower[- ]risk|better)\b[^.]{0,60}?,? so (?:I'll|I will|we'll|let's) (?:do|go with|take|use|pick) (?:that|this|it|them|that one|this one)\b/i;
export function chosenAmongOptions(sentence: string): boolean {
  const rest = amongOptions.exec(sentence)?.[1];
  return (rest !== undefined && judgesOne.test(rest)) || itIs.test(sentence) || smallerSoThat.test(sentence);
}

/**
 * A design stated as what a part of the code will or should do, with its reason: "The function will also take a
 * per-user lock; without it, two bookings could both pass the cap check", "Both handlers should build the key from
 * the path alone, so cached pages match ...", "The importer should handle empty files, since users upload them".
 * After a plain "will" only a purpose counts (so that, so X doesn't, to avoid, without it): "The parser will skip the
 * line because it starts with #" explains what the code does.
 */
const partWill =
  /^(?:the|this|that|each|every|both|all|our|its|an?) (?:[\w`'.()/-]+ ){0,5}?(will|should|must)(?: (?:also|only|now|instead|still|always|never))? ([a-z]+)\b/i;
const purpose =
  /\bso that\b|,? so (?!that\b)[^,.;]{3,80}? (?:doesn't|don't|won't|can't|never|stays?|keeps?|matches?|is|are)\b|\bto (?:avoid|keep|prevent|ensure)\b|;\s*without (?:it|this|that|them)\b/i;
/** What a part does by itself, not as designed: it is, fails, takes time, works. */
const notDesign =
  /^(?:be|been|have|has|need|fail|break|crash|throw|error|hang|work|run|get|see|show|look|happen|succeed|pass|compile|probably|likely|not|never|still|also|need|want|seem|appear|end|become|time|say|tell|print|log|complain|warn|report)$/i;
export function designStated(sentence: string, reason: boolean): boolean {
  const m = partWill.exec(sentence);
  const verb = m?.[2];
  if (!m || verb === undefined || notDesign.test(verb) || opensWithLook(verb)) return false;
  const plainWill = m[1]?.toLowerCase() === 'will' && !/will (?:also|now|instead)\b/i.test(m[0]);
  return plainWill ? purpose.test(sentence) : reason;
}
