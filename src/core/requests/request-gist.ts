import { clip, clipEnds } from '../clip.js';

/**
 * What a long request asks, in fewer characters: the resume context's Goal quotes the user, and a request can be a
 * paragraph of spoken background with the asks inside it, a pasted brief with the ask before or after it, or a
 * prompt a coordinator wrote around a task section.
 */

/** A heading that names the ask, at the start of its line: "=== TASK ===", "## Task", "## Your task: ...", "<task>". */
const askHeading =
  /^(?:={2,}[ \t]*(?:task|request|assignment|objective)[ \t]*={2,}|#{1,4}[ \t]+(?:the |your )?(?:task|request|assignment|objective)s?(?:[ \t]*:[^\n]{0,60})?|<(?:task|request)>)[ \t]*$/im;
/** A section heading of such a prompt: "=== X ===", a markdown heading, or the tag closing the task. */
const sectionHeading = /^(?:={2,}[^\n]*={2,}|#{1,4}[ \t]+\S[^\n]*|<\/(?:task|request)>)[ \t]*$/m;

/**
 * A link whose text is its address (`[https://x/y](https://x/y)`, how Codex Desktop and other apps write a pasted
 * URL) as the address the user pasted: said once.
 */
export const bareLinks = (text: string) => text.replace(/\[(https?:\/\/[^\]\s]+)\]\((\1)\)/g, '$1');

/**
 * The task section of a prompt written in sections (a coordinator's: its protocol under other headings first), else
 * the whole text. A task heading after an opening that is not itself a section ("Analyze the CLI ... Your task:
 * 1. ...") heads the steps of the request the opening makes: the whole text is the ask.
 */
export function askOf(text: string): string {
  const heading = askHeading.exec(text);
  if (!heading || !sectionHeading.test(text.slice(0, heading.index))) return text;
  const rest = text.slice(heading.index + heading[0].length);
  const end = sectionHeading.exec(rest);
  const section = (end ? rest.slice(0, end.index) : rest).trim();
  return section.length >= 20 ? section : text;
}

/**
 * A sentence that asks: an order ("Make sure ...", "First, confirm this.", "don't use ...", "Re-review the findings"),
 * or a want or a question put to the agent ("I also want you to audit this", "can you ...", "we need to ...").
 */
const asks =
  /^(?:(?:so|and|also|now|then|first|second|third|next|finally|please|but|ok(?:ay)?|lastly|plus),?\s+)*(?:re-?)?(?:make sure|ensure|confirm|check|verify|audit|add|build|create|implement|fix|write|update|remove|delete|find|investigate|review|refactor|migrate|move|rename|use|don'?t|do not|never|always|try|run|test|document|explain|design|set up|install|change|replace|keep|let'?s|lets|go ahead|start|continue|figure out|look into|develop|plan|commit|push|deploy|report|port|convert|split|merge|clean up)\b|\b(?:I|we)(?: \w+)? (?:want|need|would like|'d like)(?: you)? to\b|\b(?:can|could|would) you\b|\b(?:we|you) (?:need to|have to|must|should)\b|\b(?:your task|the task is)\b/i;

/** The sentences of a paragraph, in order; a prompt's closing tag ends one with its sentence (`network.</task>`). */
const sentencesOf = (paragraph: string) =>
  paragraph
    .split(/(?<=[.!?](?:<\/[\w-]+>)*)\s+(?=\S)|(?<=[.!?](?:<\/[\w-]+>)+)(?=<[\w-]+>)/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The lead (sentence 0, maybe cut) and the kept sentences, in the order written, " … " where some were left out. */
function render(units: readonly string[], lead: string | null, kept: ReadonlySet<number>): string {
  const parts: [number, string][] = lead === null ? [] : [[0, lead]];
  for (const i of [...kept].sort((a, b) => a - b))
    if (i !== 0 || lead === null) parts.push([i, units[i] ?? '']);
  return parts
    .map(([i, t], k) => (k === 0 ? t : `${i === (parts[k - 1]?.[0] ?? -2) + 1 ? ' ' : ' … '}${t}`))
    .join('');
}

/** Whether a sentence asks (a tag it opens with, `<task>`, left aside). */
const asking = (sentence: string) => asks.test(sentence.replace(/^(?:<[\w-]+>\s*)+/, ''));

/**
 * The first line of a text, with the line it introduces when it ends on a colon ("Implement the following plan:" and
 * the plan's title under it).
 */
function openingOf(text: string): string {
  const first = text.slice(0, text.indexOf('\n') >>> 0).trim();
  if (!first.endsWith(':')) return first;
  const next = /\n\s*(\S[^\n]*)/.exec(text);
  return next ? text.slice(0, next.index + next[0].length).trim() : first;
}

/** What an agent does that a limit names: commit, push, run, install, edit... */
const acts =
  '(?:run|commit|push|merge|deploy|publish|release|install|delete|remove|edit|modify|change|touch|write|create|open|reset|rebase|force|call|send|post|upload|add|rename|move)';

/**
 * A line that limits what the agent may do ("Read-only: do not modify files or run tests", "Never push to main",
 * "Don't touch bun.lock", "important not to commit changes until final step"): the next session must keep to it
 * however short the Goal is cut.
 */
const limit = new RegExp(
  `\\b(?:do not|don'?t|never|must not|mustn'?t|read[- ]only|without (?:modifying|changing|touching)|not to (?:re-?)?${acts})\\b`,
  'i',
);

/** Whether a request says what the agent may not do (`limit`): kept the longest when requests are cut. */
export const limitsTheAgent = (text: string): boolean => limit.test(text);

/** Words that say a request holds for the rest of the session ("from now on", "for the rest of this session"). */
const fromNowOn = String.raw`(?:from now on|from here on|going forward|for the rest of (?:this|the) (?:session|conversation|work))`;
const languages =
  'English|Korean|Japanese|Chinese|Mandarin|Spanish|French|German|Portuguese|Russian|Italian|Dutch|Polish|Turkish|Ukrainian|Vietnamese|Indonesian|Hindi|Arabic|Hebrew|Swedish|Norwegian|Danish|Finnish|Czech|Greek|Thai';
/** What a whole short request may be that makes it a rule: the tool to use, the language to answer in. */
const ruleWhole = new RegExp(
  String.raw`^(?:please,?\s+)?(?:${fromNowOn},?\s+)?(?:always\s+)?(?:` +
    String.raw`use\s+(?:pnpm|yarn|bun|npm|uv|poetry|pdm|deno)(?:\s+(?:instead of|not|rather than)\s+\S+)?` +
    String.raw`|(?:answer|reply|respond|talk|speak|write)(?:\s+to me)?\s+(?:only\s+)?in\s+(?:${languages})` +
    String.raw`)(?:,?\s+(?:please|${fromNowOn}))?[.!]*$`,
  'i',
);
/** A request that opens with a rule: "always run the tests before committing", "from now on, squash your commits". */
const ruleOpening = new RegExp(
  String.raw`^(?:please,?\s+)?(?:(?:${fromNowOn},?\s+)(?:please\s+)?\S|(?:${fromNowOn},?\s+)?always\s+(?:run|use|answer|reply|respond|write|test|check|commit|ask|keep|add|make|read|format|lint|follow|include|prefer|update|open|create|put|name|speak|talk|sign|rebase|squash)\b)`,
  'i',
);

/**
 * Whether the user gave a request as a rule for the whole session, in a few words (160 characters at most, so a task
 * brief that says "always" somewhere is none): "always run the tests before committing", "use pnpm", "answer in
 * Korean", "from now on, squash your commits". Read conservatively: the rule opens the request, or is all of it.
 */
export const setsARule = (text: string): boolean => {
  const t = text.trim();
  return t.length <= 160 && (ruleWhole.test(t) || ruleOpening.test(t));
};

/**
 * Whether a request stays in force after later ones (kept past the last requests the state holds, listed first when
 * the Goal is cut): it limits what the agent may do, or sets a rule for the session.
 */
export const staysInForce = (text: string): boolean => limitsTheAgent(text) || setsARule(text);

/**
 * The part of a sentence that limits the agent: from the clause its limiting words open ("... found no surviving
 * processes; do not overclaim remote termination" from "do not"), the whole sentence when they stand in its first
 * clause ("Read-only: do not modify files").
 */
function limitingPart(sentence: string): string {
  const at = limit.exec(sentence)?.index ?? 0;
  const before = sentence.slice(0, at);
  const clause = /^.*(?:[;:]|\s[—–-])\s+/s.exec(before);
  return clause ? sentence.slice(clause[0].length) : sentence;
}

/** A limit on what the agent does (commit, push, run, install, edit...), kept before one on what it says or claims. */
const limitsAnAct = new RegExp(
  `\\b(?:do not|don'?t|never|must not|mustn'?t|not to)\\b[^.;]{0,40}?\\b(?:re-?)?${acts}\\b`,
  'i',
);

/**
 * A text cut to both ends (its opening and its end, where a brief's ask stands), with the sentences in the middle that
 * limit what the agent may do after them (each from its limiting clause on; those on what the agent does first), in a
 * third of the room at most.
 */
function withLimits(text: string, max: number, head: number): string {
  const whole = clipEnds(text, max, head);
  // sentence by sentence, a prompt's tags (`</task><rules>`) ending one
  const sentences = text
    .replace(/<\/?[\w-]+>/g, '\n')
    .split('\n')
    .flatMap(sentencesOf);
  // the words of a sentence the head already shows are not said again: only the rest of it, when that limits too
  // (the head "... sessionOrchestrator must not be agent specific" of "... and don't refer to agent paths.")
  const cutAt = whole.indexOf(' … ');
  const shownHead = cutAt >= 0 && text.startsWith(whole.slice(0, cutAt)) ? cutAt : 0;
  const unsaid = (l: string) => {
    const at = text.indexOf(l);
    return at >= 0 && at < shownHead ? l.slice(shownHead - at).trim() : l;
  };
  const missing = sentences
    .filter((l) => limit.test(l) && !whole.includes(l))
    .map(unsaid)
    .filter((l) => limit.test(l))
    .map((l) => clip(limitingPart(l), 160))
    .sort((a, b) => Number(limitsAnAct.test(b)) - Number(limitsAnAct.test(a)));
  const room = Math.floor(max / 3);
  const kept: string[] = [];
  for (const l of missing) {
    if ([...kept, l].join(' … ').length <= room) kept.push(l);
    else if (kept.length === 0) {
      // the first does not fit whole (a small room): it, cut, when that keeps enough of it to say what it forbids
      const cut = clip(l, room);
      if (cut.length >= LIMIT_MIN) kept.push(cut);
    }
  }
  if (kept.length === 0) return whole;
  const said = kept.join(' … ');
  return `${clipEnds(text, max - said.length - 3, head)} … ${said}`;
}

/** The least room an opening that asks is cut to: a few words more than a title's. */
const LEAD_MIN = 64;

/**
 * `request` in at most `max` characters. A task section stands for the whole prompt. One paragraph of several
 * sentences (a request spoken or typed at length) keeps the sentences that ask: the opening first when it asks (cut to
 * 40% of the room, 64 characters at least), then those that limit what the agent may do ("Read-only: do not modify
 * files"), then the last ask (the one a paragraph ends on), then the others in order; an opening that only tells the
 * background comes last, in the room left. Anything else keeps both ends: a pasted brief has its ask before or after
 * it, and its first line (a title, or an opening and the line it introduces) stays whole; a sentence in between that
 * limits what the agent may do ("Read-only: do not ...") is kept after them.
 */
export function gistOf(request: string, max: number): string {
  const text = bareLinks(askOf(request)).trim();
  if (text.length <= max) return text;
  const units = text.includes('\n') ? [] : sentencesOf(text);
  const asks = units.flatMap((u, i) => (asking(u) ? [i] : []));
  const opening = openingOf(text);
  if (units.length < 3 || asks.length === 0) return withLimits(text, max, Math.min(opening.length, 80) + 1);
  // the opening names the task: 40% of the room, and never so little it names nothing
  const leadRoom = Math.max(Math.ceil(max * 0.4), Math.min(LEAD_MIN, max));
  let lead = asks[0] === 0 ? clip(units[0] ?? '', leadRoom) : null;
  const kept = new Set<number>();
  const limits = units.flatMap((u, i) => (limit.test(u) ? [i] : []));
  for (const i of [...limits, asks.at(-1), ...asks]) {
    if (i === undefined || i === 0 || kept.has(i)) continue;
    if (render(units, lead, new Set(kept).add(i)).length <= max) kept.add(i);
  }
  // no sentence that limits the agent fits whole (a small room): the first, cut to the room left, when that keeps
  // enough of it to say what it forbids ("Read-only: do not modify files…")
  let shown = units;
  const firstLimit = limits.find((i) => i !== 0);
  if (firstLimit !== undefined && !limits.some((i) => kept.has(i) || (i === 0 && lead !== null))) {
    const cut = clip(limitingPart(units[firstLimit] ?? ''), max - render(units, lead, kept).length - 3);
    if (cut.length >= LIMIT_MIN) {
      shown = units.map((u, i) => (i === firstLimit ? cut : u));
      kept.add(firstLimit);
    }
  }
  if (lead === null) {
    const room = max - render(shown, null, kept).length - 3;
    if (room >= 40) lead = clip(units[0] ?? '', room);
  }
  return render(shown, lead, kept);
}

/** The least of a sentence that limits the agent worth keeping cut: "Read-only: do not modify files…". */
const LIMIT_MIN = 24;
