import { clip } from '../../../core/clip.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { DecisionDraft } from '../../extractor.js';
import { draft } from './decision-signals.js';
import { pairs } from './rejected-plans.js';
import { native } from '../native-regexp.js';
import { declinedWords, spoken } from '../../session/requests.js';
import { askOf } from '../../../core/requests/request-gist.js';
import { USER_DIRECTIVE } from '../../../core/requests/request-text.js';
import { sentencesOf } from '../../../core/sentences.js';

/**
 * The user's directives on how the work is done, which bind the agent as much as its own choices: "don't use X,
 * use Y", "let's go with X", "use X instead", "X is not acceptable", the pace of the work ("one task at a time",
 * "stop after each so I can review", "ask me before ..."), the option the user picks ("option 2. single file"),
 * "dataclasses, not pydantic", "go back to what we had", "no shortcuts", "the fewer changes the better", "some hard
 * requirements:". A request of what to build is the goal, not a decision; questions (but "could you ... instead of
 * ...?"), slash commands, pasted material and injected context are left out. So are the words a call is declined with
 * ("no, don't touch the migrations, the DBA team owns them"; "use pnpm"), when they refuse it or say what instead.
 */
const directive = native(
  /\b(?:don'?t|do not|never) (?:use|add|create|make|put|write|change|touch|include|generate|call|rely on|mock|split|introduce)\b|\b(?:instead of|rather than)\b|\buse .{1,60}? instead\b|\blet'?s (?:use|go with|keep|stick with|switch to|not)\b|\b(?:go|stick) with\b|\b(?:is|are) not acceptable\b|\bunacceptable\b|\bone (?:task|step|file|change|phase|commit) at a time\b|\bstop (?:after|before) each\b|\b(?:ask|check with) me (?:first|before)\b|\bwait for my (?:review|approval|ok|go-ahead)\b|\buse (?:the |our )?`[^`]{1,60}`|\b(?:from now on|going forward)\b|^(?:ok,? |yes,? |so,? )?(?:let'?s (?:go with|do) |go with |I(?:'d)? (?:prefer|pick|choose|take) )?option [\w\d]{1,2}\b|^[\w` -]{2,30}, not (?!(?:bad|sure|yet|now|really|quite|exactly|much)\b)[\w` -]{2,30}[.!]|\b(?:use|keep|make|put|store) [^.,]{1,60}, not (?:a |an |the )?\w|\bgo back to\b|\brevert (?:it|that|this|to|the)\b|\bno shortcuts\b|\bno [\w -]{2,30},? please\b|^just [^.,]{2,40}, no\b|\bthe (?:fewer|less|smaller) [\w ]{1,30} the better\b|\b(?:hard )?(?:requirements|constraints):\s*$/i,
);

/**
 * Rules the user sets for the work, however plainly put: "no new dependencies", "stick to the standard library",
 * "always run the linter before committing", "prefer composition over inheritance", "avoid using any", "keep the API
 * backwards compatible", "only change the parser", "do not modify the tests", "put it behind a feature flag", "write
 * the tests first", "make sure you don't break ...", "I want it in TypeScript, not JavaScript", "... and nothing else",
 * "important not to commit until the final step", "you must not touch the schema".
 */
const workRule = native(
  /\b(?:don'?t|do not|never|avoid) (?:\w+ing|modify|edit|delete|remove|push|commit|break|rename|install|upgrade|bump|refactor|rewrite|disable|hardcode|hard-code|skip)\b|\bno (?:new |extra |additional |external |third[- ]party )?(?:dependenc(?:y|ies)|packages|libraries|frameworks|mocks|shortcuts|breaking changes)\b|\b(?:stick|keep) to (?:the |our |plain |standard )?[\w`.-]+|\balways (?:run|use|add|write|keep|ask|check|commit|test|lint|format)\b|\bprefer\b.{1,40}?\bover\b|\bkeep (?:it|this|them|the [\w-]+(?: [\w-]+)?) (?:backwards?[- ]compatible|in (?:one|a single) \w+|minimal|simple|small|private|internal|pure|(?:a|the) (?:[\w-]+ )?(?:same|current) \w+)\b|\bonly (?:change|touch|modify|edit|use)\b|\bnothing else\b|\bput (?:it|this|them|that) behind a (?:feature )?flag\b|\b(?:write|add) (?:the )?tests first\b|\btest[- ]first\b|\bmake sure (?:you |we |to )?(?:don'?t|do not|never|keep|only)\b|\bI want (?:it|this|them) (?:in|to be|as) .{1,40}, not\b|\b(?:it(?:'s| is) )?(?:important|essential|crucial|critical) (?:not to|to never|never to)\b|\b(?:you|we) (?:must not|mustn'?t)\b/i,
);

/** "Can you pass it to the constructor instead of ...?": a request phrased as a question still directs the work. */
const politeRequest = /^(?:can|could|would|will) you\b|^please\b/i;

/** A call declined with words that open by refusing it or saying what to do instead: "no, ...", "use pnpm", "instead ...". */
const refusal = /^(?:no|nope|don'?t|do not|never|not (?:this|that|now|yet)|instead|use)\b/i;

const injected = /^\s*<|^\s*\/\w|```|Caveat:|This session is being continued/;

/** "let's keep going with the next task", "go with whatever you think is best": the user leaves the course as is. */
const noCourse =
  /\blet'?s (?:keep going|continue|go on|move on|proceed)\b|\bkeep going\b|\bgo with (?:whatever|what(?:ever)? you (?:think|prefer|like)|your (?:choice|call|pick|recommendation))\b/i;

/** One decision per user message that gives a directive: the message is the description. */
export function userDirectives(entries: readonly TranscriptEntry[], taskId: string | null): DecisionDraft[] {
  const out: DecisionDraft[] = [];
  for (const e of entries) {
    if (e.sidechain) continue;
    // the words the user declined a call with ("no, don't touch the migrations"): the call refused, and how
    const declined = declinedWords(e);
    if (declined === null && (e.role !== 'user' || e.kind !== 'text')) continue;
    // the user's own words: not another agent's message, a task notification or a reminder
    const said = declined ?? spoken(e.text)?.trim() ?? '';
    // a long message is mostly pasted material, but a task section (a coordinator's prompt around its protocol) is
    // the ask itself: its rules bind the work however long it is
    const text = askOf(said);
    if (text.length < 12 || (text === said && text.length > 1500) || injected.test(text)) continue;
    const sentence = sentencesOf(text.replace(/[\u2018\u2019]/g, "'")).find(
      (s, i) =>
        (directive.test(s) || workRule.test(s) || (declined !== null && i === 0 && refusal.test(s))) &&
        !noCourse.test(s) &&
        (!/\?\s*$/.test(s) || politeRequest.test(s)),
    );
    if (!sentence) continue;
    out.push(draft(e, 'approach', clip(text.replace(/\s+/g, ' '), 300), USER_DIRECTIVE, taskId));
  }
  return out;
}

/** The last line of the agent's reply to the user message at `index`, before it acts (its first tool call). */
export function replyEndOf(entries: readonly TranscriptEntry[], index: number): number {
  let end = entries[index]?.line ?? 0;
  for (const next of entries.slice(index + 1)) {
    if (next.sidechain) continue;
    if (next.role === 'user' || next.kind === 'tool_call' || next.kind === 'tool_result') break;
    end = next.line;
  }
  return end;
}

/** The first text of the agent's reply to the user message at `index`, before it acts. */
export function firstReplyText(
  entries: readonly TranscriptEntry[],
  index: number,
): TranscriptEntry | undefined {
  const asked = entries[index]?.line ?? 0;
  const end = replyEndOf(entries, index);
  return entries.find((r) => r.line > asked && r.line <= end && r.role === 'assistant' && r.kind === 'text');
}

/**
 * Where the agent restates the user's directive ("do one task at a time and stop after each" / "Got it — I'll do one
 * task at a time and check in with you after each."): the first text of its reply that shares two words in a row
 * with it. The directive is one decision, evidenced there.
 */
export function restatedIn(
  entries: readonly TranscriptEntry[],
  directive: DecisionDraft,
): TranscriptEntry | null {
  const at = entries.findIndex((e) => e.line === directive.evidence_line);
  const end = replyEndOf(entries, at);
  const named = pairs(directive.description);
  return (
    entries.find(
      (e) =>
        e.line > (directive.evidence_line ?? 0) &&
        e.line <= end &&
        e.role === 'assistant' &&
        e.kind === 'text' &&
        [...pairs(e.text)].some((p) => named.has(p)),
    ) ?? null
  );
}
