import { clip } from '../../../core/clip.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { DecisionDraft } from '../../extractor.js';
import { decisionType } from './decision-types.js';
import { looking, processStep } from './looks-and-steps.js';
import { draft } from './decision-signals.js';
import { sentencesOf } from '../../../core/sentences.js';

/**
 * The user corrects the agent's course and the agent accepts it: "it's bad idea, since entire conversation will be
 * proceed every time ... there is a need to track latest synced message id" answered by "You're absolutely right.
 * Re-syncing entire conversations every time is terrible for performance." The correction is a decision, whatever
 * words the user chose: the agent's acceptance is what says so. Evidenced where the agent accepts it (its reply is
 * where it restates the new course), described in the user's words, with the agent's reason.
 */

/** The agent's reply opens by accepting a point: "You're absolutely right", "Good catch", "The user is right". */
const accepts =
  /^(?:(?:ah|oh|wait|yes|right|ok|okay)\b[,!.]*\s*)?(?:(?:you'?re|you are|the user is|they're|they are|the user's) (?:absolutely |completely |totally |quite |entirely |exactly )?(?:right|correct)\b|(?:absolutely|exactly) right\b|(?:(?:that's|this is|that is) )?(?:well[- ]reasoned|a (?:good|great) idea)\b|(?:good|great) idea\b|(?:(?:this|that)(?: is|'s) (?:a |an )?)?(?:good|great|excellent|fair|valid|important|brilliant|critical|key) (?:point|catch|call|insight|distinction|observation)\b|brilliant\b)/i;

/**
 * The user directs the course rather than only stating a fact: "no, ...", "don't ...", "there is a need to ...",
 * "must not be agent specific", "let's set ...", "keep in mind ...", "it's bad idea". A fact alone ("it's a json
 * file") leaves the agent to decide what follows from it, and the agent's own statement of that is the decision.
 */
const directs =
  /^(?:no|nope|not)\b|(?:^|[.,;:!-]\s*)(?:don'?t|do not|never|avoid|just|instead|keep|let'?s|use|stop)\b|\b(?:need to|needs to|no need|must|should(?:n'?t)?|has to|have to|instead of|rather than|bad idea|not (?:valid|acceptable|a good idea|needed|necessary)|unacceptable|overcomplicat\w*|keep in mind|make sure|prefer|how about|what about|what if we|why not)\b/i;

/** A proposal asked as a question: "how about 15% identity, 25% liveness ...?", accepted it is a correction too. */
const proposes = /(?:^|[.!]\s+)(?:how about|what about|what if we|why not)\b[^?]{6,}\?\s*$/i;

/**
 * A question that challenges the course: "there are no tracking of failures for metrics. does it make sense to have it
 * combined", "do we really need a cache here?". Accepted ("You're absolutely right! That's inconsistent."), the course
 * changes: a correction too.
 */
const challenges =
  /\b(?:does (?:it|this|that) (?:really |even )?make sense|do we (?:really |even |actually )?need|is (?:it|this|that) (?:really |even )?(?:necessary|needed|required)|why (?:do|would|should) we (?:even )?need|shouldn'?t (?:we|it|this|that)|wouldn'?t it be (?:better|simpler|cleaner|easier)|isn'?t it (?:better|simpler|cleaner|easier|overkill))\b/i;

/**
 * A report that something fails ("no, the tests still fail") asks for a fix, not a course: it counts only when it
 * also says how to work ("use X instead", "don't ...", "let's ...").
 */
const reportsFailure =
  /\b(?:still|doesn'?t work|does not work|not working|fails?|failing|failed|crash(?:es|ed)?|errors?|exception)\b|\b(?:is|are|was|it's|still) broken\b/i;
const saysHow = /\b(?:instead|rather than|use|don'?t|do not|let'?s|never|avoid)\b/i;

/**
 * A reminder of a step of the process ("you should run the linter too", "make sure you commit", "let's keep going")
 * directs no course, unless it also names one to avoid ("instead", "don't use", "never").
 */
const processDirective =
  /\b(?:should|make sure(?: to| you)?|need to|must|remember to|don'?t forget to|please|just)\s+(?:you\s+)?(?:also\s+)?(?:run|re-?run|test|commit|push|check|continue|keep going|proceed|verify|lint|build|format)\b|^(?:(?:ok|okay|great|good|yes|thanks)[,!.]?\s+)*(?:let'?s\s+)?(?:keep going|continue|go on|carry on|proceed|move on)\b/i;
const namesCourse = /\b(?:instead|rather than|don'?t use|do not use|never|avoid|not acceptable|bad idea)\b/i;

/**
 * What the reply goes on to say after accepting: a look or a step of the process ("Let me run the linter now.",
 * "Committing now.") does not take a new course, a change does. So "no, it's in deploy/values.yaml" answered by
 * "You're right, let me look at it" is a fact corrected; answered by "let me update X to ..." it changes the course.
 */
const stepNow =
  /^(?:now,? |ok,? |okay,? |sure,? |understood,? )*(?:committing|pushing|running|re-?running|checking|looking|reading|continuing|moving on|proceeding|on it|will do|done)\b/i;
function statesChange(rest: string): boolean {
  return sentencesOf(rest)
    .map((x) => x.trim().replace(/^[\s!.,:—–-]+/, ''))
    .some((x) => x.length >= 8 && !looking.test(x) && !processStep.test(x) && !stepNow.test(x));
}

/** Or agrees with it early in the reply: "The user wants X. This makes sense - ...". */
const agrees = /\b(?:this|that) makes (?:total |perfect |more |a lot of )?sense\b/i;
const accepted = (reply: string) => accepts.test(reply) || agrees.test(reply.slice(0, 300));

/** Text the user did not type as a turn: injected context, slash commands, interruptions, pasted blocks. */
const injected = /^\s*<|^\s*\/\w|```|Caveat:|This session is being continued|^\s*\[Request interrupted/;

const userTurn = (e: TranscriptEntry) => !e.sidechain && e.role === 'user' && e.kind === 'text';
const said = (e: TranscriptEntry) =>
  !e.sidechain && e.role === 'assistant' && (e.kind === 'text' || e.kind === 'thinking');
const plain = (text: string) =>
  text
    .replace(/[*_#>`]/g, '')
    .replace(/[\u2018\u2019]/g, "'")
    .trim();

/** The reply past its opening acceptance. */
function afterAcceptance(reply: string): string {
  let rest = plain(reply);
  const at = agrees.exec(rest.slice(0, 300));
  if (!accepts.test(rest) && at) rest = rest.slice(at.index);
  for (let i = 0; i < 3 && accepts.test(rest); i += 1)
    rest = rest.replace(accepts, '').replace(/^[\s!.,:—–-]+/, '');
  return rest;
}

/** The first sentence after the acceptance that gives a reason rather than announcing a step. */
function reasonAfter(reply: string): string {
  const rest = afterAcceptance(reply);
  const sentences = rest.split(/(?<=[.!])\s+|\n+/).map((x) => x.trim());
  return sentences.find((x) => x.length > 0 && !/^(?:let me|let's|I'll|I will|now|first)\b/i.test(x)) ?? '';
}

export interface Correction {
  /** The user's message. */
  user: TranscriptEntry;
  /** The last line of the agent's reply before it acts (its first tool call). */
  replyEnd: number;
  /** The line where the turn ends: the next user message (or the end of the transcript). */
  turnEnd: number;
  decision: DecisionDraft;
}

/** Every user message the agent's reply accepts as a correction, the reply's text preferred over its thinking. */
export function courseCorrections(entries: readonly TranscriptEntry[], taskId: string | null): Correction[] {
  const out: Correction[] = [];
  let agentSpoke = false;
  entries.forEach((e, i) => {
    if (said(e) && e.kind === 'text') agentSpoke = true;
    if (!userTurn(e) || !agentSpoke) return;
    const text = plain(e.text);
    if (text.length < 8 || injected.test(e.text)) return;
    const challenged = challenges.test(text);
    if (!directs.test(text) && !challenged) return;
    if (/\?\s*$/.test(text) && !proposes.test(text) && !challenged) return;
    if (reportsFailure.test(text) && !saysHow.test(text)) return;
    if (processDirective.test(text) && !namesCourse.test(text)) return;
    const reply: TranscriptEntry[] = [];
    let j = i + 1;
    for (let next = entries[j]; next !== undefined; next = entries[(j += 1)]) {
      if (next.sidechain) continue;
      if (next.role === 'user' || next.kind === 'tool_call' || next.kind === 'tool_result') break;
      if (said(next)) reply.push(next);
    }
    const accepting = reply.filter((r) => accepted(plain(r.text)));
    const where = accepting.find((r) => r.kind === 'text') ?? accepting[0];
    if (
      !where ||
      !statesChange(
        afterAcceptance(where.text) +
          reply
            .filter((r) => r !== where)
            .map((r) => `\n${r.text}`)
            .join(''),
      )
    )
      return;
    const description = clip(text.replace(/\s+/g, ' '), 300);
    let next = entries[j];
    while (next !== undefined && !userTurn(next)) next = entries[(j += 1)];
    out.push({
      user: e,
      replyEnd: reply.at(-1)?.line ?? where.line,
      turnEnd: next?.line ?? Number.MAX_SAFE_INTEGER,
      decision: draft(where, decisionType(description), description, reasonAfter(where.text), taskId),
    });
  });
  return out;
}
