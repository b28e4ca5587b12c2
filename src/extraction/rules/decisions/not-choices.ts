import { native } from '../native-regexp.js';

/** Not choices: questions, conditions, status reports, announcements of tools and skills, options listed. */
const notAChoice = [
  /\?$/,
  /^(?:if|when|once|whether|unless)\b/i,
  /^(?:this|that|it|the \w+) (?:is|was|are|were|has|have) (?:now |already |been )?(?:done|complete|fixed|updated|added|created|in place|passing|green|working)\b/i,
  /\bI'm using (?:the )?[`\w:-]+(?: \w+)? (?:skill|workflow)\b|\busing `?[\w-]+:[\w-]+`? (?:briefly )?because\b/i,
  /^(?:I|we) (?:can|could|might|may)\b/i,
  // one of the options listed ("Option 1: use an image model yourself"), not the one taken
  /^option \w{1,3}\s*[:.)-]/i,
  /^(?:but|however),? (?:since|because|as)\b[^,]*,\s*(?:maybe|perhaps)\b/i,
  // where the work begins ("Let me start with gqc.4 — it's small and focused"): an order of work, not a way of doing it
  /^(?:(?:now,? )?(?:let me|let's|I'll|I will|we'll|I'm going to|I am going to)\s+)?(?:start|begin)(?:ing)? with\b(?!.*\b(?:instead|rather than|over|vs\.?|versus)\b)/i,
];
/** Whether the sentence is one of those that are not choices. */
export const isNotAChoice = (sentence: string) => notAChoice.some((re) => re.test(sentence));

/**
 * A sentence ending in a colon announces what follows. It is a fragment when the clause stops short ("The best
 * approach is to:", "Here's what I'll add:") or only judges ("Now the solution is much cleaner:"); a whole clause
 * that says what is done ("The fix is to set a timeout in the config:") still states the choice.
 */
const fragment =
  /(?:\b(?:is|are|was|be|to|as|the|a|an|of|for|with|that|this|these|following|follows|below|here|thought|steps|changes|what I'll \w+|what we need|do)|\bhere's \w+(?: \w+)?|[^\w`)'"])$/i;
/** A text ending in a colon whose clause stops short or only announces what follows. */
export const announcesFragment = (text: string) =>
  text.endsWith(':') && fragment.test(text.slice(0, -1).trimEnd());

/** "The design is now much cleaner." judges a change made; it is a decision only when it goes on to say what. */
export const judged = native(
  /\b(?:is|are|looks|seems)(?: now)?(?: much| a lot| far)? (?:cleaner|simpler|better|nicer|good|done|complete|ready|working|correct|fine|right|straightforward|simple|clear|easy|obvious|trivial|sound|solid|reasonable|robust)\b(?![^.!]*(?::|\s[-–—]\s))/i,
);
/** Weighing options, not yet choosing one. */
export const deliberating =
  /\b(?:weighing|considering|wondering|deciding|not sure) (?:whether|if|how|between)\b/i;

/** "Now I'll use a different approach for the parser:" announces a choice the colon's list names, not this sentence. */
export const unnamedChoice =
  /\b(?:a|an|the|this|that|another)\s+(?:[\w-]+ ){0,2}(?:approach|way|fix|solution|plan|strategy|option|method)(?: (?:for|to|in|on|with) [\w`'./ -]{1,40})?$/i;
