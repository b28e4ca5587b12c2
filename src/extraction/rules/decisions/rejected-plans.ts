import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { firstReplyText } from './user-directives.js';

/**
 * A plan the user turns down is not a decision: "I'll refactor the whole auth module into classes since ..." answered
 * by "no, leave the auth module alone, just fix the token expiry bug" and the agent's "Understood. Fixing only the
 * expiry check." Only an explicit rejection (no, don't, revert, undo, leave ... alone) the agent accepts counts, and
 * only the agent's choices of that turn (since the user last spoke) that name what the user rejects (two words in a
 * row in common: "the auth module") are dropped; "don't create a separate VPC" leaves the turn's other choices be.
 */
const rejects = /^\s*(?:no|nope|don'?t|do not|revert|undo|stop)\b|\bleave .{1,40}? alone\b/i;
const acceptsIt =
  /^\s*(?:understood|ok(?:ay)?|got it|sure|right|fair|you'?re (?:absolutely )?right|makes sense)\b/i;

const stop = new Set(
  'the and for with this that into from then just only also don not can will all any its are was were'.split(
    ' ',
  ),
);
/** Pairs of content words in a row: what two texts share when one restates the other. */
export const pairs = (text: string) => {
  const words = (text.toLowerCase().match(/[a-z0-9_]{3,}/g) ?? []).filter((w) => !stop.has(w));
  return new Set(words.slice(1).map((w, i) => `${words[i]} ${w}`));
};

export interface Rejection {
  from: number;
  to: number;
  /** Word pairs of the user's rejection. */
  names: Set<string>;
}

/** Whether a stated choice falls in a rejected turn and names what was rejected. */
export const isRejected = (rejections: readonly Rejection[], line: number, description: string) =>
  rejections.some((r) => line > r.from && line < r.to && [...pairs(description)].some((p) => r.names.has(p)));

/** The turns (after one user turn, before the next) whose stated choices the user rejected, and what it named. */
export function rejectedRanges(entries: readonly TranscriptEntry[]): Rejection[] {
  const out: Rejection[] = [];
  let turnStart = 0;
  entries.forEach((e, i) => {
    if (e.sidechain || e.role !== 'user' || e.kind !== 'text' || e.text.trimStart().startsWith('<')) return;
    const text = e.text.replace(/[\u2018\u2019]/g, "'");
    if (rejects.test(text) && !/\?\s*$/.test(text)) {
      const reply = firstReplyText(entries, i);
      if (reply && acceptsIt.test(reply.text.replace(/[*_]/g, '')))
        out.push({ from: turnStart, to: e.line, names: pairs(text) });
    }
    turnStart = e.line;
  });
  return out;
}
