import type { DecisionType } from '../../../core/schemas/records.js';
import { clarifying } from './choice-signs.js';
import { forced, limitation } from './reason-shapes.js';
import { restraint } from './restraint.js';

/** A decision's type: one of Amelia's six. */
export type Kind = (typeof DecisionType.options)[number];

/**
 * The type of a change made because of what its cause sentence says: a limitation of the tools or environment
 * ("SQLite doesn't support", "were blocked by the browser policy", "I couldn't") makes it a workaround, unless its
 * own words say skip or clarification; a bug's cause leaves it to the words.
 */
export function typeAfterCause(cause: string, sentence: string): Kind {
  const kind = decisionType(`${cause} ${sentence}`);
  const limited =
    limitation.test(cause) ||
    /\b(?:I|we) (?:couldn't|could not|can't|cannot|wasn't able to|was unable to)\b|\b(?:blocked|denied|not permitted)\b/i.test(
      cause,
    );
  return limited && (kind === 'approach' || kind === 'library' || kind === 'architecture')
    ? 'workaround'
    : kind;
}

/** Amelia's six types, from the words of the sentence. */
export function decisionType(sentence: string): Kind {
  if (
    clarifying.test(sentence) ||
    /\b(interpret|assum(?:e|ing)|take (?:it|this) to mean|understood as)\b/i.test(sentence)
  )
    return 'clarification';
  if (
    restraint(sentence) ||
    /\b(skip|ignor(?:e|ing)|defer|leave .{0,30} for later|out of scope|not (?:going to|worth)|leave (?:it|this|that) to)\b/i.test(
      sentence,
    )
  )
    return 'skip';
  if (
    /\b(fall(?:ing)? back|workaround|work around|not (?:exposed|available|supported|possible)|since .{0,40}(?:isn't|is not|aren't|are not|can't|cannot|doesn't|does not))\b/i.test(
      sentence,
    ) ||
    // an alternative set aside is a workaround only when a limitation forced it
    (/\b(?:instead|rather than)\b/i.test(sentence) && (limitation.test(sentence) || forced.test(sentence)))
  )
    return 'workaround';
  if (
    /\b(library|package|crate|module from|dependency|framework|sdk)\b|\b(?:use|using|adopt|with) (?:the )?`?[\w@/.-]+`? (?:library|package|crate|tool)\b/i.test(
      sentence,
    )
  )
    return 'library';
  if (
    /\b(dedicated|separate (?:file|module|layer|function|helper|class)|new (?:file|module|layer|class)|thin wrapper|abstraction|interface|in both|both (?:[\w-]+ ){0,3}(?:paths|places|adapters|modules|layers|files|sides|callers)|split|extract|agent-agnostic|layer)\b/i.test(
      sentence,
    )
  )
    return 'architecture';
  return 'approach';
}
