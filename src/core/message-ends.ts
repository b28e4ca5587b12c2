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
 * A condition on what the user may want ("If you want, I can also ...", "Let me know if you'd like a PR", "Happy to
 * add tests if needed", Korean "원하시면", "필요한 사항이 있으면"): an offer of more, which finished work may close on, not
 * a step held for the user's word. "Let me know if this looks good and I'll start" asks for a verdict: no offer.
 */
const optional =
  /\bif (?:you(?:'d| would| do)?\s+(?:like|want|wish|prefer|need)|needed|necessary|useful|helpful|wanted)\b|\bwhether you(?:'d| would)? (?:like|want)\b|\bfeel free\b|\b(?:anything else|any other)\b|원하시면|원하신다면|필요하시면|필요하면|필요한|있으면|있으시면|추가로/i;

/** The agent's own step after the user's word: "and I'll deploy", "before I merge", "so I can go on", "me to push". */
const ownStep = /\b(?:I'll|I will|I can|I'd|before I|so I|then I|me to)\b/i;

/** A Korean sentence ending on a step of the agent's, to be taken ("... Plan 단계로 진행합니다", "머지하겠습니다"). */
const koreanStep =
  /(?:진행|넘어가|넘어갑|시작|머지|배포|구현|적용|커밋|푸시|아카이브|릴리스|작성)[^.!?\n]*?(?:합니다|하겠습니다|겠습니다|할게요|갑니다)[.!]?$/;

/**
 * A question that asks leave to go on with the work itself ("Ready to proceed with implementation?", "Shall I start
 * implementing the handlers?", "Should I continue with the remaining files?", "Go ahead with phase 2?", "Proceed?"):
 * the step is the agent's own, held for the user's word, whatever it wrote before. Going on is said by its verb
 * (proceed, continue, carry on, go on), by starting the implementation, or by going ahead (or on) with the plan, its
 * next phase or step; not an offer of more after finished work ("Should I go ahead and create a PR?", "Want me to
 * start on the docs update too?", "Do you want me to move on to the cleanup?", "Shall I add tests?").
 */
const askedLead = String.raw`^(?:(?:so|ok(?:ay)?|and|now),?\s+)?(?:(?:are you |is it |)(?:ready|ok(?:ay)?|good|fine|alright) (?:for me )?to |(?:shall|should|can|may) (?:I|we) |(?:do you )?want me to |would you like me to |is it ok(?:ay)? if I )?`;
const goingOn = String.raw`(?:proceed|continue|carry on|go on)\b(?! and\b)|(?:start|begin|get started)(?: (?:on |with )?(?:the )?)?(?:implementing|implementation|coding)\b|implement (?:it|this|that|them|these|the plan|the design)\b|(?:go ahead|move on)(?=\s*\?| with (?:it|this|that|the (?:plan|implementation|changes?|migration|design)|implementing|(?:the next |)(?:phase|step|stage)\b)| to (?:the next |)(?:phase|step|stage)\b)`;
const goAheadAsked = new RegExp(`${askedLead}(?:${goingOn})[^?]*\\?`, 'i');

/**
 * The ways agents hand the next step to the user's answer without a question mark, as real sessions say them: what to
 * answer ("Reply 'approve' and I'll go on to the Plan step", "Say the word and I'll deploy", "Reply with a number to
 * view details", "Paste the screenshots when ready"), when they go on ("Let me know when you want me to push", "Ready
 * to push or create a PR when you're ready", "Once you confirm, I'll ..."), a wait on the user ("Waiting for your
 * go-ahead before I merge", "Awaiting approval before implementing"), and Korean's ("'승인'이라고 답해 주시면 Plan 단계로
 * 넘어가겠습니다", "승인 대기 중", "승인 후 ... 진행합니다"). Words the user may say anyway ("Tell me ...", "Confirm ...",
 * "Once you've reviewed it, ...") hand a step over only with the agent's own step after them (`ownStep`): "Confirm the
 * deploy looks right on staging" and "Once you've reviewed it, you can merge" leave the next step to the user.
 */
const handoffs: ((sentence: string) => boolean)[] = [
  (t) =>
    goAheadAsked.test(t) &&
    !/\b(?:too|also|as well)\b/i.test(t) &&
    !/\b(?:next|another|new|other)\s+(?:ticket|issue|task|project|thing)\b/i.test(t),
  (t) =>
    /(?:진행|시작|구현|넘어가|계속)[^?\n]{0,12}(?:할까요|해도 될까요|하시겠습니까|해도 괜찮을까요)\s*\?/.test(
      t,
    ),
  (t) =>
    /^(?:please\s+|just\s+)?(?:reply|respond|say\s+(?:the word|so|[`'"“])|type\s+[`'"“]|paste\s+(?:the|your|it|them)|give me the\s+(?:go|word|ok))/i.test(
      t,
    ),
  (t) =>
    /^(?:please\s+|just\s+)?(?:tell me|send\s+(?:me|the|your)|confirm\b(?!:)|approve\b(?!:))/i.test(t) &&
    ownStep.test(t),
  (t) => /\blet me know (?:when|once|if)\b/i.test(t) && ownStep.test(t),
  (t) => /\b(?:when|whenever|once)\s+you(?:'re| are)\s+ready\b/i.test(t),
  (t) =>
    /\b(?:once|when|after|as soon as)\s+you(?:'ve| have)?\s+(?:confirm|approve|agree|say|reply|answer|decide|give|sign|ok|review|tell|let me know)/i.test(
      t,
    ) && ownStep.test(t),
  (t) =>
    /\b(?:wait(?:ing)?\s+(?:for|on)|await(?:ing)?|need|needs|pending)\s+(?:your\s+|the user's\s+)?(?:go[- ]ahead|approval|confirmation|sign[- ]off|ok(?:ay)?|answer|decision|reply|word)\b/i.test(
      t,
    ) && !/^(?:no|nothing)\b/i.test(t),
  (t) =>
    !/감사/.test(t) &&
    (/승인\s*(?:대기|이\s*필요|을\s*기다)/.test(t) ||
      (/(?:답변|답|말씀|알려|확인|승인)\s*(?:해|하여)?\s*주시면|승인\s*(?:후|되면|해주시면)/.test(t) &&
        koreanStep.test(t))),
];

/**
 * Whether a message ends handing the next step to the user's answer (`handoffs`: without a question mark, or asking
 * leave to go on, `goAheadAsked`): the work waits on that answer as on a question, whatever the agent did before it. An offer of more on a condition of
 * the user's wish (`optional`) is none, as an offer that closes an answer with a "?" is none (`endsOnOffer`).
 */
export function endsOnHandoff(text: string): boolean {
  const sentence = lastSentences(text, 1)[0] ?? '';
  return !optional.test(sentence) && handoffs.some((h) => h(sentence));
}

/** The last `n` sentences of a message's last paragraph, its code, app directives and list marks left out. */
function lastSentences(text: string, n: number): string[] {
  const prose = text
    .replace(appDirective, '')
    .replace(/```[\s\S]*?(?:```|$)/g, '')
    .trim();
  const lastParagraph = prose.split(/\n\s*\n/).at(-1) ?? '';
  const lastLine = n === 1 ? (lastParagraph.split('\n').at(-1) ?? '') : lastParagraph;
  return sentencesOf(lastLine.replace(/[\u2018\u2019]/g, "'"))
    .map((s) => s.replace(/^[\s>*_#-]+/, '').trim())
    .filter(Boolean)
    .slice(-n);
}

/** What an agent waits on outside the conversation: a CI run and its checks, a build, a deploy, a review. */
const outside = String.raw`(?:the |its |PR #?\d+(?:'s)? |this )?(?:CI|checks?|(?:CI |GitHub )?(?:build|pipeline|workflow run|actions? run)|deploy(?:ment)?|release|review(?:ers?)?|tests? to|(?:background )?run)`;

/** How such a wait ends: "once CI passes", "when the checks are green", "after it finishes". */
const over = String.raw`(?:\w+\s+)?(?:pass(?:es)?|(?:is|are|goes|go|turns?) green|finish(?:es)?|completes?|succeeds?|lands?|is done|are done)\b`;

/** A step of the agent's own that waits for it: "I'll merge", "I will tag". */
const ownAct = String.raw`(?:I'll|I will)\s+(?:\w+\s+)?(?:merge|deploy|release|publish|tag|continue|proceed|go on|report|archive|retry|check|run|push)\b`;

/**
 * The ways agents end a turn waiting on something outside the conversation before their next step, as real sessions
 * say them: "Waiting for CI on PR #234; once it passes I'll merge", "I'll merge once the checks are green",
 * "Watching the run in the background — I'll report when it finishes", Korean "PR #234 CI 완료 대기 중. 통과하면
 * 머지하고 ... 아카이브합니다". The wait is what a sentence says first ("While waiting for the build, I also ..." and
 * "Waiting for CI was the slow part" report one over), and the step after it is the agent's own: "once CI passes, you
 * can merge" hands it to the user, "CI가 통과하면 봇이 자동으로 머지합니다" to a bot.
 */
const waits = [
  new RegExp(
    String.raw`^(?:(?:now|still|currently|just|I'm|I am)\s+)*(?:waiting|watching)\s+(?:for|on|until)\s+${outside}\b(?![^.;,]*\b(?:was|were|took|is what)\b)`,
    'i',
  ),
  new RegExp(
    String.raw`\b${ownAct}[^.]*\b(?:once|when|after|as soon as)\s+(?:${outside}|(?:it|they)\s+${over})`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:once|when|after|as soon as)\s+(?:${outside}|it|they)\s+${over}[^.]*\b${ownAct}`,
    'i',
  ),
  /(?:CI|체크|빌드|배포|리뷰|테스트)[^.\n]{0,30}대기\s*중(?:입니다)?[.!]?$/,
  new RegExp(
    String.raw`^(?!.*(?:자동|봇))(?:.*(?:통과하면|완료되면|끝나면|성공하면|통과 후)).*${koreanStep.source}`,
  ),
];

/**
 * Whether a message ends waiting on something outside the conversation (a CI run, a build, a deploy, a review)
 * before a step of the agent's own (`waits`, read in each of its last two sentences): the work is not over until that
 * step is taken, as a turn that left a command running in the background is not (`awaitedAfter` reads those from the
 * calls). An offer on the user's wish (`optional`: "I'll check the logs once the deploy finishes if you want") is none.
 */
export function endsWaitingOn(text: string): boolean {
  return lastSentences(text, 2).some((t) => !optional.test(t) && waits.some((w) => w.test(t)));
}
