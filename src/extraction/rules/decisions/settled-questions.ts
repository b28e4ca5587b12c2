import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { DecisionDraft } from '../../extractor.js';
import { spoken } from '../../session/requests.js';
import { draft } from './decision-signals.js';
import { doingAnyForm } from './doing-verbs.js';
import { opensWithLook } from './looks-and-steps.js';
import { sentencesOf } from '../../../core/sentences.js';

/**
 * The agent ends its message asking whether to make a change ("Want me to commit and push it?", "Should I bump the
 * override too, or leave it for a separate PR?") and the user's next message settles it ("yes", "commit and push",
 * "leave it"): the answer is a decision, evidenced at the user's message, described as question and answer (a bare
 * "yes" to a message that states its choice and asks to go ahead approves that choice: one decision, the agent's). A
 * question about a look or a step of going on ("Should I run the tests?", "Shall I continue?"), or one that only asks
 * what the user thinks, settles nothing; a long answer or one that asks back is the user's own turn, read elsewhere.
 */
const offer =
  /^(?:(?:so|ok(?:ay)?|also),? )?(?:(?:do )?you want me to|want me to|should I|shall I|would you like me to|(?:do you want|would you like) (?:me|us) to|should we|shall we|is it (?:ok|okay|fine) (?:if I|to))\s+(.{3,200})\?$/i;
/** Going on, or a look: asked, it settles no course. */
const noCourse =
  /^(?:(?:also|just|now|then|first|go ahead and)\s+)*(?:continue|proceed|go on|keep going|move on|start|begin|stop|wait|explain|elaborate|walk you|show you|tell you|summari[sz]e|look|run|re-?run|test|check|verify|investigate|dig)\b/i;
/** A change of the repository's history or of what is shipped: these steps are the user's call, asked or not. */
const shipping = /\b(?:commit|push|merge|deploy|release|publish|tag)\b/i;

/** The user agrees, refuses, or names the way: "yes", "go ahead", "no, leave it", "commit and push". */
const agrees =
  /^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|go ahead|do it|please do|sounds good|lgtm|no|nope|not yet|don'?t)\b/i;
const contentWords = (text: string) =>
  new Set(
    (text.toLowerCase().match(/[a-z][a-z0-9_-]{3,}/g) ?? []).filter(
      (w) =>
        !/^(?:that|this|with|then|also|them|just|yeah|sure|okay|ahead|please|sounds|good|fine|thanks)$/.test(
          w,
        ),
    ),
  );

/** The sentences of a text, the last ones first. */
const lastSentences = (text: string) =>
  sentencesOf(
    text
      .replace(/```[\s\S]*?```/g, '\n')
      .replace(/[*_`]/g, '')
      .replace(/[\u2018\u2019]/g, "'"),
  )
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .reverse();

export interface SettledQuestion {
  decision: DecisionDraft;
  /** The line of the agent's message that asked. */
  asked: number;
  /** The answer only agrees or refuses ("yes go ahead"): it names no way of its own. */
  bare: boolean;
}

/** Each message of the user's with the agent's words right before it, which it answers (the main conversation). */
function* replies(
  entries: readonly TranscriptEntry[],
): Generator<{ asked: TranscriptEntry; reply: TranscriptEntry }> {
  let lastSaid: TranscriptEntry | null = null;
  for (const e of entries) {
    if (e.sidechain) continue;
    if (e.role === 'assistant' && e.kind === 'text' && e.text.trim()) lastSaid = e;
    if (e.role !== 'user' || e.kind !== 'text') continue;
    const asked = lastSaid;
    lastSaid = null;
    if (asked) yield { asked, reply: e };
  }
}

export function settledQuestions(
  entries: readonly TranscriptEntry[],
  taskId: string | null,
): SettledQuestion[] {
  const out: SettledQuestion[] = [];
  for (const { asked, reply: e } of replies(entries)) {
    const answer = (spoken(e.text) ?? '').trim();
    if (!answer || answer.length > 200 || /\?\s*$/.test(answer)) continue;
    // the question is among the message's last three sentences ("Want me to push it? CI only runs on main.")
    const question = lastSentences(asked.text)
      .slice(0, 3)
      .map((s) => offer.exec(s))
      .find((m) => m !== null);
    const what = question?.[1] ?? '';
    if (!question || noCourse.test(what) || opensWithLook(what)) continue;
    if (!doingAnyForm.test(what) && !shipping.test(what)) continue;
    const asks = contentWords(what);
    const names = [...contentWords(answer)].some((w) => asks.has(w));
    if (!agrees.test(answer) && !names) continue;
    out.push({
      decision: draft(e, 'clarification', `${question[0]} -> ${answer}`, "the user's answer", taskId),
      asked: asked.line,
      bare: !names,
    });
  }
  return out;
}

/** A numbered line: "2. use period", "3) yes". */
const numbered = /^\s*(?:\*\*)?(\d{1,2})[.)](?:\*\*)?\s+(.+)$/;
/**
 * The point an answer settles, said short: the item's lead ("Settings" of "Settings -- During install, ...") and the
 * sentence of it that asks or offers a choice ("... a namespacing convention (e.g. `a.key` or `a:key`)"), else its
 * first.
 */
function pointOf(item: string): string {
  const text = item
    .replace(/\*\*|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const lead = /^([^.:]{2,40}?)\s+(?:--|—|–)\s+|^([^.:]{2,40}?):\s+/.exec(text);
  const body = lead ? text.slice(lead[0].length) : text;
  const said = body.split(/(?<=[.!?])(?<!\b(?:e\.g|i\.e|etc|vs)\.)\s+(?=[A-Z])/);
  // the point's question, else the options it names ("e.g. X or Y", "(X or Y)"), else a sentence with an "or"
  const offer =
    said.find((x) => x.endsWith('?')) ??
    said.find((x) => /\be\.g\.|\bsuch as\b|\([^)]*\bor\b[^)]*\)/i.test(x)) ??
    said.find((x) => /\b(?:or|either)\b/i.test(x)) ??
    said[0] ??
    body;
  const name = lead?.[1] ?? lead?.[2];
  return `${name ? `${name}: ` : ''}${offer}`.slice(0, 240);
}

/**
 * The user answers the points of the agent's numbered list one by one ("1. good. 2. use period. 3. yes" under
 * "1. Python deps -- ...", "2. Settings -- ... a namespacing convention (period or colon)", "3. Both must be
 * recursive", "Want me to implement these fixes?"): each answer settles its point, a decision at the user's message
 * described as point and answer. The agent's message asks something among its last sentences, and each answer is
 * short and not a question; a numbered list of the user's own tasks answers nothing.
 */
export function numberedAnswers(entries: readonly TranscriptEntry[], taskId: string | null): DecisionDraft[] {
  const out: DecisionDraft[] = [];
  for (const { asked, reply: e } of replies(entries)) {
    if (
      !lastSentences(asked.text)
        .slice(0, 3)
        .some((s) => s.endsWith('?'))
    )
      continue;
    const points = new Map<string, string>();
    for (const l of asked.text.replace(/```[\s\S]*?```/g, '\n').split('\n')) {
      const m = numbered.exec(l);
      if (m?.[1] && m[2]) points.set(m[1], pointOf(m[2]));
    }
    const answers = (spoken(e.text) ?? '')
      .split('\n')
      .map((l) => numbered.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    const fits = (m: RegExpExecArray) =>
      points.has(m[1] ?? '') && (m[2] ?? '').trim().length <= 120 && !/\?\s*$/.test(m[2] ?? '');
    if (answers.length < 2 || !answers.every(fits)) continue;
    for (const m of answers)
      out.push(
        draft(
          e,
          'clarification',
          `${points.get(m[1] ?? '')} -> ${(m[2] ?? '').trim()}`,
          "the user's answer",
          taskId,
        ),
      );
  }
  return out;
}
