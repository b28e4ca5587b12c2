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

/**
 * A condition on what the user may want ("If you want, I can also ...", "Let me know if you'd like a PR", Korean
 * "원하시면"/"필요하시면"): an offer of more, which finished work may close on, not a step held for the user's word.
 */
const optional = /\b(?:if|whether|feel free)\b|원하시면|원하신다면|필요하시면|필요하면/i;

/**
 * The ways agents hand the next step to the user's answer without a question mark, as real sessions say them: what to
 * answer ("Reply 'approve' and I'll go on to the Plan step", "Say the word and I'll deploy", "Reply with a number to
 * view details", "Paste the screenshots when ready"), when they go on ("Let me know when you want me to push", "Ready
 * to push or create a PR when you're ready", "Once you confirm, I'll ..."), a wait on the user ("Waiting for your
 * go-ahead before I merge"), and Korean's ("'승인'이라고 답해 주시면 Plan 단계로 넘어가겠습니다", "승인 대기 중", "승인 후 ...").
 */
const handoffs = [
  /^(?:please\s+|just\s+)?(?:reply|respond|say\s+(?:the word|so|[`'"“])|type\s+[`'"“]|tell me\b|send\s+(?:me|the|your)|paste\s+(?:the|your|it|them)|confirm\b(?!:)|approve\b(?!:)|give me the\s+(?:go|word|ok))/i,
  /\blet me know (?:when|once)\b/i,
  /\b(?:when|whenever|once)\s+you(?:'re| are)\s+ready\b/i,
  /\b(?:once|when|after|as soon as)\s+you(?:'ve| have)?\s+(?:confirm|approve|agree|say|reply|answer|decide|give|sign|ok|review|tell|let me know)/i,
  /\b(?:wait(?:ing)?\s+(?:for|on)|await(?:ing)?|need|needs|with|after|pending)\s+(?:your|the user's)\s+(?:go[- ]ahead|approval|confirmation|sign[- ]off|ok(?:ay)?|answer|decision|reply|word)\b/i,
  /(?:답변|답|말씀|알려|확인|승인)\s*(?:해|하여)?\s*주시면|승인\s*(?:대기|이\s*필요|을\s*기다|후)/,
];

/**
 * Whether a message ends handing the next step to the user's answer without asking a question (`handoffs`): the
 * work waits on that answer as on a question, whatever the agent did before it. An offer of more on a condition of
 * the user's wish (`optional`) is none, as an offer that closes an answer with a "?" is none (`endsOnOffer`).
 */
export function endsOnHandoff(text: string): boolean {
  const prose = text
    .replace(appDirective, '')
    .replace(/```[\s\S]*?(?:```|$)/g, '')
    .trim();
  const last = prose.split('\n').at(-1) ?? '';
  const sentence = (sentencesOf(last).at(-1) ?? '')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/^[\s>*_#-]+/, '')
    .trim();
  return !optional.test(sentence) && handoffs.some((h) => h.test(sentence));
}

/** What an agent waits on outside the conversation: a CI run and its checks, a build, a deploy, a review. */
const outside = String.raw`(?:the |its |PR #?\d+(?:'s)? |this )?(?:CI|checks?|(?:CI |GitHub )?(?:build|pipeline|workflow run|actions? run)|deploy(?:ment)?|release|review(?:ers?)?|tests? to|(?:background )?run)`;

/** How such a wait ends: "once CI passes", "when the checks are green", "after it finishes". */
const over = String.raw`(?:\w+\s+)?(?:pass(?:es)?|(?:is|are|goes|go|turns?) green|finish(?:es)?|completes?|succeeds?|lands?|is done|are done)\b`;

/**
 * The ways agents end a turn waiting on something outside the conversation before their next step, as real sessions
 * say them: "Waiting for CI on PR #234; once it passes I'll merge", "I'll merge once the checks are green",
 * "Watching the run in the background — I'll report when it finishes", Korean "PR #234 CI 완료 대기 중. 통과하면
 * 머지하고 ... 아카이브합니다". The agent's own step after the wait is what is left to do; "once CI passes, you can
 * merge" hands the step to the user and leaves nothing of the agent's.
 */
const waits = [
  new RegExp(String.raw`\b(?:waiting|wait|watching)\s+(?:for|on|until)\s+${outside}\b`, 'i'),
  new RegExp(
    String.raw`\b(?:I'll|I will)\s+(?:\w+\s+)?(?:merge|deploy|release|publish|tag|continue|proceed|go on|report|archive|retry|check)\b[^.]*\b(?:once|when|after|as soon as)\s+(?:${outside}|(?:it|they)\s+${over})`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:once|when|after|as soon as)\s+(?:${outside}|it|they)\s+${over}[^.]*\b(?:I'll|I will)\b`,
    'i',
  ),
  /(?:CI|체크|빌드|배포|리뷰|테스트)[^.\n]{0,30}대기\s*중|(?:통과하면|완료되면|끝나면|성공하면|통과 후)[^.\n]*(?:합니다|하겠습니다|진행)/,
];

/**
 * Whether a message ends waiting on something outside the conversation (a CI run, a build, a deploy, a review)
 * before a step of the agent's own (`waits`, read in its last two sentences): the work is not over until that step is
 * taken, as a turn that left a command running in the background is not (`awaitedAfter` reads those from the calls).
 */
export function endsWaitingOn(text: string): boolean {
  const prose = text
    .replace(appDirective, '')
    .replace(/```[\s\S]*?(?:```|$)/g, '')
    .trim();
  const lastParagraph = prose.split(/\n\s*\n/).at(-1) ?? '';
  const tail = sentencesOf(lastParagraph.replace(/[\u2018\u2019]/g, "'"))
    .map((s) => s.replace(/^[\s>*_#-]+/, '').trim())
    .filter(Boolean)
    .slice(-2)
    .join(' ');
  return waits.some((w) => w.test(tail));
}
