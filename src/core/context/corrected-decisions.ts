import type { Decision, UserRequest } from '../schemas/records.js';
import { sentencesOf } from '../sentences.js';

/**
 * A decision the user spoke against: the user's reply to it, when it is the agent's latest choice, turns it down flatly
 * ("it's bad idea", "not acceptable"), or one of the next two requests said after it has a sentence opening as a
 * correction or a rejection ("no, add conversationId field, but set value from sessionId", "don't ...", "actually
 * ...", "instead ...", "it's good, but ... . it's not valid to track all changes ...") and names what the decision
 * names (one identifier or path, or two longer words). A correction further on answers later work, however
 * many words it shares with an old choice. Whether the decision still holds is the user's to say, not Baton's: the
 * context puts their words under it, so the next agent does not follow a choice the user turned down.
 */

const correction =
  /^\W*(?:no|nope|nah|not|don'?t|do not|never|instead|actually|wait|rather|revert|undo|wrong|that'?s (?:not|wrong))\b/i;
/** camelCase, snake_case, dotted or slashed names, names with digits: what a code choice is about. */
const identifier = /^(?=.*[a-z])(?:[a-z]+[A-Z]\w*|\w+_\w+|[\w-]+(?:[./][\w-]+)+|[a-z]+\d\w*)$/;
const common = new Set(
  'about above after again based being below could every first found their there these thing think those where which while would should still other using since'.split(
    ' ',
  ),
);
/** A longer word in its singular ("sessions" and "session" name one thing). */
const stem = (w: string) => w.toLowerCase().replace(/(?<=\w{4})s$/, '');
const wordOf = (t: string) =>
  t.length >= 5 && /^[a-z]+$/i.test(t) && !common.has(t.toLowerCase()) ? stem(t) : null;

/** The names (identifiers, paths) a text says, and its longer words, a name's parts among them. */
function termsOf(text: string): { names: Set<string>; words: Set<string> } {
  const names = new Set<string>();
  const words = new Set<string>();
  for (const raw of text.split(/[\s,;:()[\]{}"'`!?<>=]+/)) {
    const t = raw.replace(/^[.-]+|[.-]+$/g, '');
    const named = identifier.test(t);
    if (named) names.add(t.toLowerCase());
    // a name's parts are words too: `conversation_uid` says "conversation"
    const parts = named ? t.split(/[^a-zA-Z]+|(?<=[a-z])(?=[A-Z])/) : [t];
    for (const p of parts) {
      const w = wordOf(p);
      if (w) words.add(w);
    }
  }
  return { names, words };
}

const when = (iso: string | null) => (iso ? Date.parse(iso) : Number.NaN);

/**
 * A reply that opens turning down what the agent proposed, whatever it names: "it's bad idea, since ...", "it's not
 * jsonl file", "not acceptable", a bare "nope", "that won't work", "option 1 is not acceptable" (not "no, run the
 * tests first": a no with a request of its own answers something else as often).
 */
const rejection =
  /^\W*(?:(?:no|nope|nah)\W*$|bad idea\b|not (?:acceptable|good|ok|okay|needed|necessary|what I)\b|(?:it|that|this)(?:'s| is) (?:a )?(?:bad|wrong|terrible|overkill|redundant|unnecessary|not\b)|(?:it|that|this) (?:won'?t|will not|doesn'?t|does not) work\b|(?:option|approach|solution|idea) \w+ is (?:not|bad|wrong)\b)/i;

/** The requests that answer a decision: the next two after it. */
const ANSWERING = 2;

/**
 * Of the next requests after the decision, the first that corrects what it names, in the user's words; null when
 * none does. `requests`: the user's recent requests, oldest first; `older`: whether older ones were left out of them
 * (a decision made before the first of them cannot tell which came next).
 */
export function correctionOf(
  decision: Decision,
  requests: readonly UserRequest[],
  older: boolean,
  decisions: readonly Decision[] = [],
): string | null {
  const made = when(decision.timestamp);
  if (Number.isNaN(made)) return null;
  const at = (r: UserRequest) => when(r.at ?? r.timestamp);
  if (older && !requests.some((r) => at(r) <= made)) return null;
  const next = requests.filter((q) => at(q) > made).slice(0, ANSWERING);
  // the user's reply to the agent's latest choice, turning it down flatly ("it's bad idea"): it is about that choice
  const reply = next[0];
  const latest = reply && !decisions.some((d) => when(d.timestamp) > made && when(d.timestamp) < at(reply));
  if (reply && latest && rejection.test(reply.text)) return reply.text.replace(/\s+/g, ' ').trim();
  const said = termsOf(`${decision.description} ${decision.rationale}`);
  const names = (text: string) => {
    const theirs = termsOf(text);
    const named = [...theirs.names].filter((n) => said.names.has(n)).length;
    const words = [...theirs.words].filter((w) => said.words.has(w)).length;
    return named >= 1 || words >= 2;
  };
  for (const r of next) {
    // it opens as a correction naming what the decision names, or a later sentence of it turns that down ("it's
    // good, but ... . it's not valid to track all changes and gather under one session file.")
    const [opening, ...rest] = sentencesOf(r.text);
    const against =
      (correction.test(opening ?? '') && names(r.text)) || rest.some((x) => rejection.test(x) && names(x));
    if (against) return r.text.replace(/\s+/g, ' ').trim();
  }
  return null;
}
