import { words } from '../similarity.js';
import { sentencesOf } from '../sentences.js';
import { appDirective } from '../message-ends.js';
import { turnStoppedBy } from '../turn-stop.js';

type Stopped = NonNullable<Parameters<typeof turnStoppedBy>[0]>;
type Asked = Parameters<typeof turnStoppedBy>[1];

/** Words that say a piece of work is over: "Verification passed", "Added retries ...", "Tests pass". */
const over =
  /\b(?:pass(?:ed|es|ing)?|done|complete[ds]?|finished|succeed(?:ed|s)?|green|added|adds|implemented|fixed|updated|wrote|written|created|removed|merged|pushed|committed|migrated|renamed|verified)\b/i;
/**
 * Words that say it is not, or only in part: "still failing", "not done", "half written", "left to do", "next I'll",
 * or that announce more of it ("divide is written; now I'll add its tests", "let me run them").
 */
const notOver =
  /\b(?:half|partly|partial(?:ly)?|part of|some of|so far|started|begun|in progress|not|no longer|still|fail(?:ed|s|ing)?|error|todo|remaining|left to|next|will|won't|cannot|can't|couldn't|didn't|haven't|hasn't|pending|blocked|skipped|let me|let's|going to)\b|\b(?:I|we)['’]ll\b|\?/i;
/** Words of a task's title too common to tie it to a line: the verbs any step begins with. */
const common = new Set([
  'run',
  'add',
  'make',
  'do',
  'use',
  'get',
  'set',
  'all',
  'new',
  'then',
  'update',
  'check',
]);

/** A word cut to its first five letters, a plural's "s" first, so "verify" meets "verification" and "tests" "test". */
const stem = (w: string) => w.replace(/s$/, '').slice(0, 5);

/**
 * The line of an agent's message that says a task is over in the task's own words ("Verification passed" for "Run
 * focused verification"): a sentence that names at least half of the title's telling words, its last one among them
 * (what the task works on: "Fix the login redirect" is not over at "Fixed the typo in the login page"), says the work
 * passed or was done, and says nothing of it failing or being left. The title's first word is its verb, which any
 * report of any work repeats ("Implemented the rate limiter" says nothing of "Implement caching"). Null when no line
 * says so. A hint for the next session to check, never a status: the list is the agent's to mark.
 */
export function saidDone(title: string, message: string): string | null {
  const telling = [...words(title)]
    .slice(1)
    .filter((w) => /^[a-z]/.test(w) && w.length > 3 && !common.has(w))
    .map(stem);
  const head = telling.at(-1);
  if (head === undefined) return null;
  const prose = message.replace(appDirective, '').replace(/```[\s\S]*?(?:```|$)/g, '');
  for (const sentence of sentencesOf(prose)) {
    const line = sentence.replace(/^[\s>*_#-]+/, '').trim();
    if (!over.test(line) || notOver.test(line)) continue;
    const said = new Set([...words(line)].map(stem));
    const named = telling.filter((w) => said.has(w)).length;
    // said as it stands, but for the colon that opened what came after it ("Verification passed:" and its commands)
    if (said.has(head) && named * 2 >= telling.length) return line.replace(/:$/, '');
  }
  return null;
}

/** The agent's last message as the workflow's state and its snapshots keep it (`summaries.last_message`). */
interface LastSaid {
  text: string;
  timestamp: string;
  turn_ended?: boolean | undefined;
  said_nothing?: boolean | undefined;
}

/** A task as the state and its snapshots keep it. */
interface TaskSaid {
  id: string;
  title: string;
  status: string;
  started_at: string | null;
}

/**
 * A task left in progress that the agent's last message says is over (`saidDone`): the line that says so, when its
 * turn ended on that message after the task started; null for another task, a message cut mid-turn, or a turn that
 * something other than the agent stopped (a usage limit, an API error, a full context: `turnStoppedBy` the user's
 * latest request, `asked`), whose last message was said on the way. The one reading of "probably done" that the
 * briefing, `baton status` and the dashboard all show.
 */
export function probablyDone(
  said: { summaries?: Stopped & { last_message: LastSaid | null }; asked?: Asked },
  t: TaskSaid,
): string | null {
  const last = said.summaries?.last_message;
  if (t.status !== 'in_progress' || !last || last.turn_ended !== true || last.said_nothing === true)
    return null;
  if (turnStoppedBy(said.summaries, said.asked) !== null) return null;
  if (t.started_at && !(Date.parse(last.timestamp) > Date.parse(t.started_at))) return null;
  return saidDone(t.title, last.text);
}

/** The tasks left in progress that the agent's last message says are over, each with the line that says it. */
export const probablyDoneTasks = (
  state: Parameters<typeof probablyDone>[0],
  tasks: readonly TaskSaid[],
): { id: string; title: string; said: string }[] =>
  tasks.flatMap((t) => {
    const said = probablyDone(state, t);
    return said === null ? [] : [{ id: t.id, title: t.title, said }];
  });
