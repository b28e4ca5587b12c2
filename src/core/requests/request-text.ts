import type { Issue, UserRequest } from '../schemas/index.js';
import { askOf, bareLinks } from './request-gist.js';

/**
 * The longest request kept whole; a longer paste keeps its head and its end (where a user puts what to do with what
 * they pasted: "Don't touch the pool size config.") and says how much was cut between them.
 */
export const REQUEST_MAX_CHARS = 20_000;
/** Of a request cut, the part kept from its end. */
const REQUEST_TAIL_CHARS = 5_000;
/** How far back a cut looks for a line's end to fall on. */
const CUT_AT_LINE_CHARS = 2_000;
const TITLE_MAX_CHARS = 80;

/** The rationale of a decision read from the user's own words (a directive): they are their own reason. */
export const USER_DIRECTIVE = "the user's directive";

/** The same words however they were spaced: what makes two recordings of one request the same. */
export const normalizeRequest = (text: string) => text.replace(/\s+/g, ' ').trim();

/** FNV-1a over the UTF-16 code units with one of two offset bases: two of them make a 64-bit key. */
function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A short key of a request's normalised text (kept for every request, so the folded state stays small). */
export function requestKey(text: string): string {
  const n = normalizeRequest(text);
  return `${n.length.toString(36)}.${fnv1a(n, 0x811c9dc5).toString(36)}.${fnv1a(n, 0x01234567).toString(36)}`;
}

/**
 * The code fences (three or more backticks or tildes opening a line) of the text, in order: an odd count leaves the
 * last one open, which the same run closes.
 */
const fences = (text: string) => text.match(/^ {0,3}(?:`{3,}|~{3,})/gm)?.map((f) => f.trim()) ?? [];

/**
 * The text as stored: trimmed, and, past REQUEST_MAX_CHARS, its head and its end kept at line ends with a note of what
 * was cut between them; a code fence the cut leaves open is closed before the note and opened again after it, so
 * neither part reads pasted output as prose.
 */
export function clipRequest(text: string): string {
  const t = text.trim();
  if (t.length <= REQUEST_MAX_CHARS) return t;
  let headEnd = REQUEST_MAX_CHARS - REQUEST_TAIL_CHARS;
  const lineEnd = t.lastIndexOf('\n', headEnd);
  if (lineEnd > headEnd - CUT_AT_LINE_CHARS) headEnd = lineEnd;
  let tailStart = t.length - REQUEST_TAIL_CHARS;
  // the end starts at a line's start (the one it falls on, when it falls on one)
  const lineStart = t.indexOf('\n', tailStart - 1);
  if (lineStart !== -1 && lineStart < tailStart + CUT_AT_LINE_CHARS) tailStart = lineStart + 1;
  const head = t.slice(0, headEnd).trimEnd();
  const inHead = fences(head);
  // inside a fence where the end begins: one the head left open and the cut part did not close, or one opened in it
  const beforeTail = fences(t.slice(0, tailStart));
  const open = inHead.length % 2 === 1 ? inHead.at(-1) : undefined;
  const reopen = beforeTail.length % 2 === 1 ? beforeTail.at(-1) : undefined;
  return [
    head,
    ...(open ? [open] : []),
    `… (${tailStart - headEnd} characters not kept here)`,
    ...(reopen ? [reopen] : []),
    t.slice(tailStart),
  ].join('\n');
}

/** A markdown link as it reads (`[#1075](https://...)`: "#1075"; a pasted address's: the address). */
const asRead = (line: string) => bareLinks(line).replace(/\[([^\]\n]+)\]\([^)\s]+\)/g, '$1');

/**
 * Words a request may open with that say nothing of its work: Claude Code's thinking keywords ("ultrathink ...",
 * "think hard: ...", not "think hard about the schema", whose words are the work), a greeting ("hi claude, ...").
 */
const noWorkLead =
  /^(?:(?:ultrathink|megathink)\b[\s,.:;!-]*|think (?:hard|harder|deeply)\s*[,.:;!-]\s*|(?:hi|hello|hey)(?: there| claude| codex)?\s*[,!.:-]\s*)+/i;

/**
 * A question about where the work stands that opens a line going on to ask for work ("where do things stand? then add
 * ..."): the ask that follows names the work, the question is about the session.
 */
const standingLead =
  /^(?:so,?\s+)?(?:where (?:do|did) (?:things|we) (?:stand|leave (?:off|it))|where are we(?: at)?|what'?s the (?:status|state)(?: of things)?|how (?:are|is) (?:things|it|we) (?:going|doing)|what (?:did|have) you (?:do|done|get done|finish|finished))\s*\?+\s*(?:(?:and\s+)?then|also|next|now)?[\s,:-]*(?=\S)/i;

/** Words that open an ask after a pasted link ("<link> fix this"), where no separator sets the two apart. */
const askWord =
  /^(?:fix|add|implement|review|look|check|investigate|debug|update|make|please|pls|can|could|why|what|how|help|see|resolve|address|handle|merge|rebase|summari[sz]e|explain)\b/i;

/**
 * A pasted link the ask follows ("https://.../job/99-- fix the ci issue", or the link alone on the first line and the
 * ask on the next): the ask first, the link after it in brackets, so the title says the work before it is cut.
 */
function askBeforeLink(line: string, next: string | undefined): string {
  const m = /^(https?:\/\/\S+)(.*)$/.exec(line);
  if (!m) return line;
  const link = (m[1] ?? '').replace(/[-\u2013\u2014:,.;]+$/, '');
  const after = (m[2] ?? '').trim();
  const separated = /^[-\u2013\u2014:,;]/.test(after) || /[-\u2013\u2014:,;]$/.test(m[1] ?? '');
  const ask = after ? after.replace(/^[-\u2013\u2014:,;\s]+/, '') : (next ?? '');
  if (!/\p{L}/u.test(ask) || (after && !separated && !askWord.test(ask))) return line;
  return `${ask} (${link})`;
}

/**
 * A title for a request: its first non-empty line (of its task section, when a coordinator's prompt has one), markdown
 * heading marks dropped, links as they read and the opening words that say nothing of the work left out (a greeting,
 * a thinking keyword, a question about where things stand before the ask), the ask before a link pasted ahead of it,
 * cut at a word near 80 characters.
 */
export function requestTitle(text: string): string {
  const [first = 'request', next] = askOf(text)
    .split('\n')
    .map((l) => asRead(l.replace(/^\s*#+\s*/, '')).trim())
    .filter((l) => l.length > 0);
  const line = askBeforeLink(first.replace(noWorkLead, '').replace(standingLead, '') || first, next);
  if (line.length <= TITLE_MAX_CHARS) return line;
  const cut = line.slice(0, TITLE_MAX_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const ackWord =
  /^(?:yes|yeah|yep|yup|ok|okay|k|sure|go|ahead|on|do|it|let'?s|lets|proceed|continue|sounds|looks|good|lgtm|approved?|perfect|great|thanks?|thank|you|ty|cool|nice|fine|right|correct|please|pls|now|then|just|that|this|agreed?|exactly|done|y|for|me|to|ship|keep|going|carry|resume|where|you|left|off|from|with|the|plan|work|working|again|up)$/i;

/** "limit reset", "usage limits are back", "ok, the rate limit has been lifted": said before a go-ahead. */
const limitOver =
  /^\s*(?:(?:ok|okay|so|alright|right)[,.!]?\s+)?(?:(?:the|my|your|our)\s+)?(?:(?:usage|rate|session|weekly|daily|token|api)\s+)?limits?\s+(?:(?:has|have|is|are|got)\s+)?(?:been\s+)?(?:reset|back|over|lifted|refreshed|renewed|cleared)\b[\s,.;:!-]*/i;

/**
 * A request that only says go on ("yep let's do it", "ok continue", "approved", "continue where you left off", "limit
 * reset, continue"), or
 * picks from the agent's menu by its letter alone ("p", "d"): it answers what came before and says nothing
 * of the goal, so it does not name the workflow while a request that does is at hand, nor stand among the Goal's
 * later requests.
 */
export function isAcknowledgement(text: string): boolean {
  // "limit reset, continue": the user's usage limit is over, and the work goes on as it was
  const rest = text.replace(limitOver, '');
  if (rest !== text && wordsOf(rest).length === 0) return true;
  const words = wordsOf(rest);
  // a letter, not "n" (a no is an answer); a number may be a value asked for ("30" seconds), so it is no pick
  if (words.length === 1 && /^[a-mo-z]$/.test(words[0] ?? '')) return true;
  return words.length > 0 && words.length <= 6 && words.every((w) => ackWord.test(w));
}

/** A request that only says go on (`isAcknowledgement`) and picks no item of the agent's list (menu-pick.ts). */
export const onlyGoesOn = (r: { text: string; refers_to?: unknown }) =>
  !r.refers_to && isAcknowledgement(r.text);

/** A short request's words, lower case, punctuation and emoji left out. */
function wordsOf(text: string): string[] {
  return normalizeRequest(text)
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .split(' ')
    .filter(Boolean);
}

const greetingWord = /^(?:hi|hello|hey|hiya|yo|ping|test|testing|there|good|morning|claude|codex)$/;
/** What a look at the agent itself asks about: its tools ("show tools"), or its model when asked of it. */
const agentPart = /^(?:tools?|mcps?|skills?|plugins?)$/;
const agentSelf = /^(?:model|version)$/;
const agentProbeWord =
  /^(?:show|list|what|which|whats|what's|are|is|your|the|all|available|do|does|you|have|can|use|me|mcp|servers?|slash|commands|installed|loaded|enabled|please|pls|tell|about|of|running|on)$/;

/**
 * A request that asks for no work: a go-ahead (`isAcknowledgement`), a greeting ("hi", "hello there"), or a look at
 * the agent itself ("show tools", "what model are you?", "list mcp servers"), unless it `picks` an item of the agent's
 * list (menu-pick.ts). It does not name the workflow while a request that says what to do is at hand.
 */
export function asksForNoWork(text: string, refers_to?: unknown): boolean {
  // a pick ("b", "5 sounds good") asks for the item of the agent's list it names
  if (refers_to) return false;
  if (isAcknowledgement(text)) return true;
  const words = wordsOf(text);
  if (words.length === 0 || words.length > 6) return false;
  if (words.every((w) => greetingWord.test(w))) return true;
  const about =
    words.some((w) => agentPart.test(w) || w === 'mcp') ||
    (words.some((w) => agentSelf.test(w)) && words.some((w) => w === 'you' || w === 'your'));
  return about && words.every((w) => agentPart.test(w) || agentSelf.test(w) || agentProbeWord.test(w));
}

/** The issue a workflow gets from its first request. */
export const issueFromRequest = (r: UserRequest): Issue => ({
  id: r.id,
  title: requestTitle(r.text),
  description: r.text,
  ...(r.refers_to ? { refers_to: r.refers_to } : {}),
});
