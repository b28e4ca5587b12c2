import { native } from '../native-regexp.js';

/** Verbs of doing (building, changing, choosing), not of looking (`doingAnyForm` also reads them as -s, -ed, -ing). */
const doingVerbs =
  'use|create|add|stop|serve|omit|pull .{1,40}? (?:into|out of)|clean up|delete|convert|port|migrate|rewrite|simplify|consolidate|centrali[sz]e|generate|configure|enable|disable|upgrade|downgrade|bump|revert|install|implement|put|move|keep|split|extract|replace|switch|skip|defer|remove|wrap|write|set|make|apply|treat|handle|go with|stick|adopt|restructure|rename|bypass|fall back|drop|pin|limit|scope|return|commit|amend|leave|ignore|delegate|launch|reuse|extend|introduce|mark|store|track|cache|inject|patch|refactor|proceed|codify|tighten|match|follow|choose|pick|prefer|interpret|assume|retry|wait|start with|begin with|force|suppress|silence|raise|lower|increase|reduce|shorten|bound|cap|guard|catch|normali[sz]e|escape|filter|trim|pass|inline|recompile|rebuild|regenerate|reset|close|allow|block|require|default|fall through|short-circuit|isolate|accept|wipe|back up|turn off|turn on|rework|fold|hoist|prefetch|precompute|debounce|throttle|memoi[sz]e|paginate|dedupe|deduplicate|encrypt|relax|loosen|widen|open(?:ing)? (?:a |the )?(?:pr|pull request|draft)';
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
/** A verb of doing in the text, a few of them in -ing too ("using", "falling back"). */
export const doing = native(
  new RegExp(
    `\\b(?:${doingVerbs}|using|creating|adding|cleaning up|keeping|skipping|falling back|run .{0,30} with)\\b`,
    'i',
  ),
);
/**
 * The same verbs in any form ("I've applied", "try setting", "pulled the logic out of"): for a change stated right
 * after its cause. Over 800 forms as one regular expression cost a hook about 10 ms to compile on every run; the
 * one-word forms are a set instead (a whole word of the text, as `\b...\b` reads it), and only the forms with
 * spaces or patterns stay a regular expression.
 */
const anyForm = topLevel(doingVerbs).flatMap(inflect);
const wordForms = new Set(anyForm.filter((f) => /^[a-z]+$/.test(f)));
const phraseForm = native(
  new RegExp(`\\b(?:${anyForm.filter((f) => !/^[a-z]+$/.test(f)).join('|')})\\b`, 'i'),
);
const phraseFormFirst = native(new RegExp(`^${phraseForm.source.slice(2)}`, 'i'));
export const doingAnyForm = {
  test: (text: string) =>
    phraseForm.test(text) || (text.match(/\w+/g) ?? []).some((w) => wordForms.has(w.toLowerCase())),
};

/** The alternatives of a pattern at its top level (a `|` inside parentheses or brackets is not one of them). */
function topLevel(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '|' && depth === 0) {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  return [...out, pattern.slice(start)];
}

/** "I'm tightening the Rust test as well so ...": the agent's present action, its verb one of doing. */
const progressive = /\b(?:I'm|I am|we're|we are) (?:also |now |just |then )?(\w+ing)\b/i;
/** The sentence goes on with a verb of doing, in any form ("pulling the logic into ..."). */
export const opensWithDoing = (text: string) =>
  phraseFormFirst.test(text) || wordForms.has(/^\w+/.exec(text)?.[0].toLowerCase() ?? '');
/** The agent's present action is one of doing: "I'm tightening ...". */
export const doingNow = (sentence: string) => {
  const m = progressive.exec(sentence);
  return m?.[1] !== undefined && opensWithDoing(sentence.slice(m.index + m[0].length - m[1].length));
};
