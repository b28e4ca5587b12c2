import { NEVER_RETURNED } from '../call-text.js';
import { commitSubject, gitCommand } from '../git-commits.js';
import { commandMade, type DoneCommit } from './done-commits.js';

const commitCall = gitCommand('commit');

/** The calls a last message names as never returned: "... before this call returned (check whether it ran): `a`". */
const openCalls = new RegExp(
  `${NEVER_RETURNED} (this call|these calls) returned \\(check whether (?:it|they) ran\\): ((?:\`[^\`\\n]+\`(?:; )?)+)`,
);

/**
 * A last message's calls that never returned, with what git shows of them: a `git commit` whose message (`-m`,
 * `-am`, `-F -` with a here-document) is the subject of a commit only git has (no transcript reported it: its call
 * was cut off before git's answer) ran, and is said to have landed, with its hash, instead of being left to check.
 * `commits` are the done list's, each taken by one call at most. The text unchanged when none landed; `all_landed`
 * when every call it names landed, so nothing of it is left to check.
 */
export function landedCalls(
  text: string,
  commits: readonly DoneCommit[],
): { text: string; all_landed: boolean } {
  const m = openCalls.exec(text);
  const unseen = commits.filter((c) => c.git_only && c.hash);
  if (!m || !unseen.length) return { text, all_landed: false };
  const calls = [...(m[2] as string).matchAll(/`([^`\n]+)`/g)].map((c) => c[1] as string);
  const taken = new Set<DoneCommit>();
  const landed = calls.map((call) => {
    if (!commitCall.test(call)) return null;
    const said = commitSubject(call);
    const c = unseen.find(
      (g) => !taken.has(g) && (said === g.subject.trim() || commandMade(call, g.subject)),
    );
    if (c) taken.add(c);
    return c ?? null;
  });
  const left = landed.filter((c) => !c).length;
  if (left === calls.length) return { text, all_landed: false };
  const check = left === 0 ? '' : ` (check whether the ${left === 1 ? 'other' : 'others'} ran)`;
  const listed = calls
    .map((call, i) => `\`${call}\`${landed[i] ? ` (it landed: commit ${landed[i].hash})` : ''}`)
    .join('; ');
  const said = `${NEVER_RETURNED} ${m[1]} returned${check}: ${listed}`;
  return { text: text.slice(0, m.index) + said + text.slice(m.index + m[0].length), all_landed: left === 0 };
}
