import { native } from '../native-regexp.js';
import { rationale } from './reason-shapes.js';

/**
 * Restraint: a change the agent chooses not to make, or the scope it keeps a change to. "I won't touch the lock
 * file", "I'm not going to bump the override in this PR", "Don't commit the generated files; ask the user first" (a
 * step of the agent's own plan), "this only fast-forwards the release branch, doesn't touch your working tree". A
 * change left undone is said with a verb of changing; not doing a look or a run ("I won't rerun the suite", "I didn't
 * check the logs") is a report, and a thing that does not change something ("This doesn't change the output")
 * describes it.
 */
const changing = String.raw`(?:touch|change|modify|edit|alter|rewrite|refactor|delete|remove|drop|bump|upgrade|downgrade|commit|push|merge|deploy|rename|reformat|bundle|fold|rebase|revert|overwrite|replace|migrate|install|add|introduce|fix|include)`;
const changingIng = String.raw`(?:touching|changing|modifying|editing|altering|rewriting|refactoring|deleting|removing|dropping|bumping|upgrading|downgrading|committing|pushing|merging|deploying|renaming|reformatting|bundling|folding|rebasing|reverting|overwriting|replacing|migrating|installing|adding|introducing|fixing|including)`;

/** Steps that wait their turn ("I'll hold off on committing until the tests pass"): the process, not a choice. */
const later = String.raw`(?!(?:committing|pushing|merging|deploying)\b)`;

/** The agent, now or in its plan, says it will not make the change. */
const wontChange = native(
  new RegExp(
    String.raw`\b(?:I|we)(?: will not|'ll not| won't|'m not going to| am not going to|'re not going to| are not going to|(?:'d| would) rather not| (?:deliberately|intentionally|purposely) (?:did not|didn't|won't|will not))\s+(?:also |yet |deliberately |intentionally )?${changing}\b|\b(?:I'm|I am|we're|we are) (?:deliberately |intentionally )?not ${changingIng}\b|^(?:not|deliberately not|intentionally not) ${changingIng}\b|^(?:do not|don't|never) ${changing}\b|\b(?:I|we)(?:'d| would|'ll| will|'m| am|'re| are)? hold(?:ing)? off on ${later}${changingIng}\b|\b(?:I|we)(?:'ll| will) (?:ask|check with you|confirm with you) before ${later}${changingIng}\b|\b(?:I|we) (?:should not|shouldn't|must not|mustn't) (?:\w+ly )?${changing}\b`,
    'i',
  ),
);

/** "this only fast-forwards X, doesn't touch Y": a change's scope, with what it leaves alone. */
const onlyNotThat =
  /\bonly\b.{3,100}?(?:,|;|\s[—–-]\s|\band\b)\s*(?:it |this )?(?:doesn't|does not|won't|will not|never) (?:touch|change|modify|affect)\b/i;

/** "I haven't touched the migrations, since they already ran": a change left undone, reported with its reason. */
const leftUndone = native(
  new RegExp(
    String.raw`\b(?:I|we) (?:haven't|have not|didn't|did not) (?:\w+ly )?${changing}(?:ed|d)?\b`,
    'i',
  ),
);

/** "I didn't touch `bun.lock`": a thing left alone on purpose, whatever follows (not "I haven't touched it yet"). */
const leftAlone = /\b(?:I|we) (?:haven't|have not|didn't|did not) (?:\w+ly )?touch(?:ed)?\b/i;

/** The reason comes after what was left undone (not "X is unused because I haven't added Y yet"). */
function undoneForAReason(sentence: string): boolean {
  const undone = leftUndone.exec(sentence);
  if (!undone || /\byet\b/i.test(sentence)) return false;
  return rationale.test(sentence.slice(undone.index + undone[0].length));
}

/** Whether the sentence says what the agent will not change, or the scope it keeps a change to. */
export const restraint = (sentence: string) =>
  wontChange.test(sentence) ||
  onlyNotThat.test(sentence) ||
  undoneForAReason(sentence) ||
  (leftAlone.test(sentence) && !/\byet\b/i.test(sentence));

/**
 * A heading over the changes the agent found and left alone: "Two things I found but did not change:", "Not
 * changed:", "Left as is:", "Out of scope:". Each item under it is a choice not to change something.
 */
export const restraintHeader = native(
  /^(?:[\w -]{0,40}\b(?:I|we) (?:\w+ )?(?:but )?(?:did not|didn't|chose not to|decided not to|deliberately did not|deliberately didn't|won't|will not|am not going to|'m not going to) (?:change|touch|fix|modify|address|include|do)\b[^:]{0,40}|(?:not (?:changed|touched|fixed|addressed|included)|left (?:alone|as[- ]is|unchanged|untouched)|(?:deliberately|intentionally) (?:not (?:changed|done|touched)|left (?:alone|out|as[- ]is))|out of scope)(?: \([^)]{1,40}\))?)\s*:$/i,
);

/**
 * A change kept to a scope by what it leaves out: "Committing everything except the model checkpoints", "I'll stage
 * all the changes but the local `.env` edits". Not a result ("Everything except the flaky test passes"); a pass "in
 * dry-run mode" or "in read-only form" is a look before the change, not a scope of it.
 */
const allBut =
  /\b(?:commit|stag|push|add|copy|copie|mov|sync|deploy|upload|migrat|delet|remov|includ|keep|kept|format|lint|port|convert|updat)\w* (?:everything|all(?: (?:the|of the|my|our))?(?: (?:files|changes|edits|tests|rows|records))?)\s*(?:else\s*)?(?:except|but|apart from|other than|save for)\b/i;
/** "To keep the diff small I only touched the two files that call it": the change's scope, reported. */
const onlyTouched = /\b(?:I|we) only (?:touched|changed|modified|edited)\b/i;
/** Whether the sentence keeps a change to a scope (the caller rules out a look). */
export const scoped = (sentence: string) => allBut.test(sentence) || onlyTouched.test(sentence);
