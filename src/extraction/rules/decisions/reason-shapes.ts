import { native } from '../native-regexp.js';
import { opensWithLook } from './looks-and-steps.js';

/**
 * The shapes of a reason: given in the same sentence (because, since, so that, "— it keeps ..."), stated before the
 * choice ("X is minimal, so I'll ..."), or a limitation or something that forces the change ("SQLite doesn't
 * support ...", "I can't ..."); and the reason as read from a sentence.
 */

/** A reason given in the same sentence. */
export const rationale = native(
  /(?:\b(?:because|since|so that|so we|so it|so they|so I can|given that|so (?:that )?[^.;]{3,80}?\bregardless of|as (?:it|this|that|the|they|there|we|I)\b(?! (?:is|was|are|stands)\s*[.,;)]?\s*$)|due to|for (?=(?:backwards?|backward|forward) compat|clarity\b|readability\b|simplicity\b|consistency\b|safety\b|testability\b|maintainability\b|robustness\b|security reasons\b|performance reasons\b)|to avoid|to keep|to make sure|to ensure|to prevent|otherwise|so (?!(?:far|much|many|long|often|well|good|yes|now)\b)(?:the |our |current |existing |all |any |both )?[\w-]+(?: [\w-]+){0,3} (?:doesn't|does not|don't|do not|won't|can't|cannot|isn't|is not|aren't|are not|stays?|keeps?|remains?|never|no longer|comes? from|share|(?:is|are) (?!(?:green|passing|done|fixed|working|clean|ok|now|still|back)\b)|match(?:es)?)|;\s*without (?:it|this|that|them)\b,?|which (?:avoids|keeps|means|matches|follows|(?:\w+ ){0,3}(?:doesn't|does not|can't|cannot|won't|will fail|isn't|is not)))\b|\s[—–]\s(?=it's|it is|they're|this is|that's|it (?:keeps|avoids|lets|means|makes|gives|saves)\b)|;\s(?=(?:it|this|that|they) (?:has|have) (?:grown|become|gotten)\b)|;\s(?!then\b|and\b|next\b|also\b)(?=(?:[\w`'-]+ ){1,5}(?:gets|get|would|wouldn't|doesn't|don't|can't|won't|needs|breaks|fails|avoids|scales)\b)|\(?(?=per (?:the|this|our|your|its|their) (?:[\w'-]+ ){0,3}(?:policy|convention|guidelines?|rules?|instructions?|requirements?)\b))\s*(.*)$/i,
);
/** "X is minimal, so I'll go with option 1": the reason stated before the choice, which is not itself a step. */
const soThen = /\S.{10,}?,?\s+so (?=(?:I'll|I will|we'll|let's|I'm going to|I am going to)\s)(.+)$/i;
/** Whether a sentence can hold that shape at all: a cheap test first (soThen tries every start of a long sentence). */
const soClause = /\sso (?:I'll|I will|we'll|let's|I'm going to|I am going to)\s/i;
/** The choice after "..., so I'll", or undefined. */
export const choiceAfterSo = (sentence: string) =>
  soClause.test(sentence) ? soThen.exec(sentence)?.[1] : undefined;

/**
 * "The sandbox blocks writes to .git, so I'm requesting approval to commit outside it": what the agent does now
 * because of what the clause before says, unless it only looks, waits, thinks or
 * goes on with the process ("so I'm committing").
 */
const soNow = /\S.{10,}?,?\s+so (?:I'm|I am|we're|we are) (?:now )?([a-z]+ing)\b/i;
const notDoing =
  /^(?:thinking|wondering|guessing|hoping|seeing|getting|having|being|going|trying|retrying|re-?running|planning|committing|pushing|merging|staging|moving|continuing|proceeding|starting|not)$/i;
export const soDoingNow = (sentence: string) => {
  const verb = /\sso (?:I'm|I am|we're|we are)\s/i.test(sentence) ? soNow.exec(sentence)?.[1] : undefined;
  return verb !== undefined && !notDoing.test(verb) && !opensWithLook(verb);
};

/** What forces a change: a tool missing or blocked, something the agent cannot do. */
export const forced =
  /\b(?:isn't|is not|aren't|are not|wasn't) (?:installed|available|exposed|reachable|allowed)\b|\b(?:unavailable|blocked|denied|missing)\b|\b(?:I|we) (?:can't|cannot|couldn't|could not)\b/i;

/** A sentence stating what does not work or is missing: the reason for the change the next sentence makes. */
export const limitation =
  /\b(?:doesn't|does not|don't|do not|can't|cannot|won't|isn't|is not|aren't|are not) (?:\w+ )?(?:support|work|render|handle|allow|exist|accept|available|configured|compatible|supported|allowed|exposed)|\bwill fail\b|\bbreaks\b|\bnot (?:supported|available|configured|compatible|allowed)\b/i;

/** A reason as read: no trailing colon or period, no text past a parenthesis it did not open. */
export function tidy(reason: string): string {
  let depth = 0;
  let end = reason.length;
  for (let i = 0; i < reason.length; i += 1) {
    if (reason[i] === '(') depth += 1;
    if (reason[i] === ')' && (depth -= 1) < 0) {
      end = i;
      break;
    }
  }
  return reason
    .slice(0, end)
    .trim()
    .replace(/[.:,;]+$/, '');
}

/** A discovery said with nothing of what was found ("Found it!", "I see the issue."): no reason for a choice. */
export const saysNothing = (text: string): boolean =>
  /^(?:(?:ok(?:ay)?|ah|aha),?\s+)?(?:found it|i see(?: it| the (?:issue|problem|bug))?|got it|there it is|that's it)[.!]*$/i.test(
    text.trim(),
  );

/**
 * The reason a sentence gives: its opening "since X," or "to X," (the purpose it serves), a rationale, the next
 * sentence's "because ...", or ", so ...".
 */
export function rationaleOf(sentence: string, next: string | undefined): string {
  // "Since X, I'll Y": the reason is the opening clause; "To keep this PR small, I'll Y": the purpose is
  const opening = /^(?:since|because|as|given that|(?=to\s))\s*(.+?),\s+(?:I|we|let|so)\b/i.exec(sentence);
  if (opening?.[1]) return opening[1].trim();
  const match =
    rationale.exec(sentence) ??
    (next ? /^(?:because|since|this is because|that's because)\b\s*(.+)$/i.exec(next) : null);
  if (match) return tidy(match[1] ?? '');
  // "I'll keep X in Y, so the scheduler can see each attempt": the consequence after ", so" is the reason
  const so = /,\s+so (?!that\b)(.{8,})$/i.exec(sentence);
  return so ? tidy(so[1] ?? '') : '';
}
