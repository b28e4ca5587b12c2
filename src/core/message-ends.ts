import { sentencesOf } from './sentences.js';

/**
 * A line that is only an app directive (Codex's desktop app renders `::git-commit{cwd="..."}` as a button): not words
 * for the next session, so left out of what is shown (the record keeps the message whole).
 */
export const appDirective = /^::[a-z][\w-]*\{[^}\n]*\}[ \t]*(?:\n|$)/gm;

/**
 * Whether a message ends announcing what the agent does next ("Let me watch the deploy.", "Now I'll run the tests:"):
 * an agent says so only to go on, so a transcript that ends there was cut before it did. Not what closes a turn: an
 * offer or a wait ("Let me know ...", "I'll wait ..."), a step the user is part of ("once you confirm", "make sure you
 * have Node 20"), a statement ("Let me be clear: ...").
 */
export function endsAnnouncing(text: string): boolean {
  const last =
    text
      .replace(/```[\s\S]*?(?:```|$)/g, '')
      .trim()
      .split('\n')
      .at(-1) ?? '';
  const sentence = (sentencesOf(last).at(-1) ?? '').replace(/[\u2018\u2019]/g, "'").trim();
  if (/\b(?:you|your|once|when|after)\b/i.test(sentence)) return false;
  // "I'll ..." alone may close a turn ("I'll wait for your go-ahead"): it announces only after "now", "next", "first"
  return /^(?:(?:ok(?:ay)?|so),?\s+)?(?:let me|(?:now|next|first),?\s+(?:let me|let's|i'll|i will|i'm going to))\s+(?!know\b|be\b|wait\b)[^?]*$/i.test(
    sentence,
  );
}

/** A list item: `- x`, `* x`, `1. x`, `2) x`, `A. x`, `**B**: x`. */
const listItem = /^\s*(?:[-*•]|\d+[.)]|[A-Z][.)]|\*\*[^*]+\*\*:?)\s/;
/** A line that asks: it ends in "?", markdown emphasis and closing brackets or quotes aside. */
const asks = (line: string) => /\?[*_)\]`"'”’]*\s*$/.test(line);

/**
 * Whether a message ends on a question: its last line asks ("Should I push, or keep it local?", "**Which option?**"),
 * or it ends on a list of options that a question just before it introduces or whose items ask. Code blocks are not
 * read (a `WHERE id = ?`), nor a question the message answers itself ("Root cause?" then the cause).
 */
export function endsOnQuestion(text: string): boolean {
  const prose = text
    .replace(appDirective, '')
    .replace(/```[\s\S]*?(?:```|$)/g, '')
    .trim();
  const lines = prose.split('\n').map((l) => l.trimEnd());
  const last = lines.at(-1) ?? '';
  if (asks(last)) return true;
  if (!listItem.test(last)) return false;
  // the list the message ends on, and the line before it
  let i = lines.length - 1;
  while (i >= 0 && (listItem.test(lines[i] ?? '') || (lines[i] ?? '').trim() === '')) i -= 1;
  const items = lines.slice(i + 1).filter((l) => listItem.test(l));
  return asks(lines[i] ?? '') || items.some(asks);
}

/** A question that offers more: "Want me to add tests?", "Should I push it?", "Shall I ...", "Would you like me to ...". */
const offer =
  /^(?:\*\*)?(?:(?:so,?|and|also,?|ok,?)\s+)?(?:(?:do you )?want me to|would you like(?: me)? to|should I|shall I|would it help if I|I can also\b)[^?]*\?[*_)\]`"'”’]*$/i;

/**
 * Whether a message ends on an offer of more work once it answered (`offer`): a report or an answer comes before the
 * question, and the question asks no either/or ("Should I use Postgres or SQLite?" is a question the work waits on,
 * as is a question that is the whole message).
 */
export function endsOnOffer(text: string): boolean {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, '').trim();
  const sentences = sentencesOf(prose.replace(/\n+/g, ' '));
  const question = (sentences.at(-1) ?? '').trim();
  const before = sentences.slice(0, -1).join(' ').trim();
  return /[.!:]\s*$/.test(before) && !/\bor\b/i.test(question) && offer.test(question);
}
