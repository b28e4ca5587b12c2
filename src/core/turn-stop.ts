import { clip } from './clip.js';
import { isContextFull, isRateBurst, isUsageLimit, stoppedByLimit } from './runtime/usage-limit.js';
import type { Summary, UserRequest } from './schemas/records.js';

interface Summaries {
  compaction: Summary | null;
  last_message: Summary | null;
  usage_limit?: Summary | null;
  api_error?: Summary | null;
}

/** The user's latest request (a state's `recent_requests`, a snapshot's `requests`), when one was recorded. */
type Asked = Pick<UserRequest, 'at' | 'timestamp'> | undefined;

/**
 * Whether the limit is over: the agent said more after the notice (a last message, a compaction summary), or the user
 * asked again after it (the reset came and they typed "continue"; a limit that stops that turn too is a new notice).
 */
const overSince = (s: Summaries, limit: Pick<Summary, 'timestamp'>, asked: Asked) =>
  [s.last_message?.timestamp, s.compaction?.timestamp, asked?.at ?? asked?.timestamp].some(
    (t) => !!t && Date.parse(t) > Date.parse(limit.timestamp),
  );

/** The agent a summary came from (its source: `codex`, `claude-code:Stop`, `<profile>:baton run`), when it says. */
export const summaryAgent = (s: Pick<Summary, 'source'>): string | null => s.source?.split(':')[0] || null;

/**
 * Why the agent's last turn stopped when a usage limit stopped it ("stopped by a usage limit of Codex, session 2, resets
 * at ..."; the agent and the Baton session the notice was recorded in), while
 * that holds: once the agent says more after the notice, or the user asks again, the work went on past the limit and
 * it is over (null): a session cut off after that was cut off, not stopped by the limit. `now`: said to a person
 * asking now, a reset already past is said so (`stoppedByLimit`).
 */
export function limitStop(summaries: Summaries | undefined, asked: Asked, now?: Date): string | null {
  const limit = summaries?.usage_limit;
  if (!summaries || !limit || overSince(summaries, limit, asked)) return null;
  return stoppedByLimit(limit.text, limit.resets_at ?? null, now, summaryAgent(limit), limit.session_number);
}

/** A request of the user and whom it was for (its source: `claude-code`, `codex:hook`), when that was recorded. */
type AskedOf = NonNullable<Asked> & Partial<Pick<UserRequest, 'source'>>;

/** Whether a summary or request of `source` is the agent `agent`'s: either unknown counts (older records name none). */
const ofAgent = (source: string | null | undefined, agent: string | null) => {
  const by = source ? summaryAgent({ source }) : null;
  return !by || !agent || by === agent;
};

/**
 * Whether the agent the limit stopped went on past it: it said more after the notice (a last message, a compaction
 * summary), or its user asked it again (the reset came and they typed "continue"; a limit that stops that turn too is
 * a new notice). Another agent working meanwhile (Codex, while Claude Code waits for its reset) ends nothing.
 */
function agentWentOn(s: Summaries, limit: Summary, requests: readonly AskedOf[]): boolean {
  const whose = summaryAgent(limit);
  const after = (t: string | null | undefined) => !!t && Date.parse(t) > Date.parse(limit.timestamp);
  return (
    [s.last_message, s.compaction].some((m) => !!m && ofAgent(m.source, whose) && after(m.timestamp)) ||
    requests.some((r) => ofAgent(r.source, whose) && after(r.at ?? r.timestamp))
  );
}

/**
 * The one judge of "does a usage limit hold now" (for `agent` when given: another agent's limit holds nothing for
 * it), in words naming whose it is ("stopped by a usage limit of Claude Code, session 1, resets at ..."). A limit
 * belongs to the agent it stopped: it is over once that agent goes on past it (`agentWentOn`). While nothing at all
 * was said or asked since, it is the stop of the workflow's last turn (`limitStop`: a reset already past is said so,
 * with what that allows). When another agent worked since, it holds only while its reset is ahead of `now`: the user
 * switched agents to wait it out, and going back before the reset may be stopped again at once. `requests`: the
 * user's recent requests (a state's `recent_requests`, a snapshot's `requests`).
 */
export function limitHolding(
  summaries: Summaries | undefined,
  requests: readonly AskedOf[] | undefined,
  now: Date,
  agent?: string | null,
): string | null {
  const limit = summaries?.usage_limit;
  if (!summaries || !limit) return null;
  const whose = summaryAgent(limit);
  if (agent && whose && whose !== agent) return null;
  const asked = requests ?? [];
  if (agentWentOn(summaries, limit, asked)) return null;
  const stop = limitStop(summaries, asked.at(-1), now);
  if (stop) return stop;
  const ahead = !!limit.resets_at && Date.parse(limit.resets_at) > now.getTime();
  return ahead ? stoppedByLimit(limit.text, limit.resets_at ?? null, now, whose, limit.session_number) : null;
}

/**
 * The same, only while the limit is still in force (its reset time ahead of `now`): a session of `agent` that starts
 * before it resets may be stopped again at once.
 */
export function limitInForce(
  summaries: Summaries | undefined,
  requests: readonly AskedOf[] | undefined,
  now: Date,
  agent?: string | null,
): string | null {
  const at = summaries?.usage_limit?.resets_at;
  return at && Date.parse(at) > now.getTime() ? limitHolding(summaries, requests, now, agent) : null;
}

/**
 * The network dropped under the agent, often mid-answer: Node's own words for a connection cut ("read ECONNRESET",
 * "socket hang up", "fetch failed", undici's "TypeError: terminated" for a body cut off mid-stream, Bun's "The socket
 * connection was closed unexpectedly"), and Claude Code's "Unable to connect to API (ECONNRESET)" once its own
 * retries ran out. Said by the agent as its API error ("API Error: socket hang up") or as its own error line
 * ("Error: read ECONNRESET", "TypeError: fetch failed" on its standard error), at the start of a line.
 */
const networkDrop = new RegExp(
  String.raw`^\s*(?:API Error:?[^\n]*?|(?:Type|Fetch|System)?Error:\s*(?:TypeError:\s*)?)(?:(?:read|write|connect)\s+)?(?:ECONNRESET|ETIMEDOUT|EPIPE|ECONNABORTED|socket hang up|fetch failed|Unable to connect to API|(?:the )?socket connection was closed unexpectedly)\b|^\s*TypeError:\s*terminated\b`,
  'im',
);

/**
 * An agent's failure that is its API's, passing, not the task's: an overloaded or failing service (Claude Code's
 * "API Error: 529 {...overloaded_error...}", a 5xx), a dropped connection to it (Claude Code's "API Error: Connection
 * error.", Codex's "stream disconnected before completion", "exceeded retry limit, last status: 500 ...",
 * "unexpected status 503 ...", the network cut mid-answer: `networkDrop`), the API's rate limit of the moment
 * (`isRateBurst`: "API Error: 429 ... 40,000 input tokens per minute", Codex's "exceeded retry limit, last status: 429
 * Too Many Requests"). Read from the start of a line of the agent's own error, so a test's output or a script's that
 * names such words ("not ok 3 - retries on ECONNRESET") is not one. Tried again later, the same request may well go
 * through; a usage limit and a full context are told apart before this (they have their own ways on).
 *
 * Not "API Error: Request was aborted.", on purpose, though `apiFailureError` counts it: those are the API client's
 * words (the Anthropic SDK's APIUserAbortError, Claude Code's ERROR_MESSAGE_USER_ABORT) when the agent's own side
 * cancelled the request (Esc, a signal to its process), not the service failing. `baton run` retries and waits out
 * what this says (`interruptForApiError`); trying a stopped request again would undo the stop, and there is no
 * failure to wait out. To whoever reads the errors it is still no fault of the work, which is all `apiFailureError`
 * decides.
 */
export const transientApiError = (text: string | null | undefined): boolean =>
  (isRateBurst(text) &&
    /^\s*(?:API Error:?\s*429\b|exceeded retry limit, last status:\s*429\b)/im.test(text ?? '')) ||
  (!!text &&
    (/^\s*(?:API Error:?\s*(?:5\d\d\b|Connection error\b|Request timed out\b|.*"type":\s*"(?:overloaded_error|api_error)")|(?:stream error:\s*)?stream disconnected before completion\b|error sending request\b|exceeded retry limit, last status:\s*5\d\d\b|unexpected status 5\d\d\b)/im.test(
      text,
    ) ||
      networkDrop.test(text)));

/**
 * An API error in a few words: Claude Code's "API Error: 529 {...overloaded_error...Overloaded}" as
 * `529 overloaded_error: Overloaded`, other words as they are (cut).
 */
export function apiErrorWords(text: string): string {
  const m = /^API Error:?\s*(\d{3})\s*(\{[^]*\})\s*$/.exec(text.trim());
  if (m) {
    try {
      const body = JSON.parse(m[2] as string) as { error?: { type?: string; message?: string } };
      const said = [body.error?.type, body.error?.message].filter(Boolean).join(': ');
      if (said) return `${m[1]} ${clip(said, 150)}`;
    } catch {
      // not JSON after all: the words as they are
    }
  }
  return clip(text.replace(/\s+/g, ' ').trim(), 160);
}

/**
 * Why the agent's last turn stopped when something other than the agent ended it, while that holds (over, as a usage
 * limit is, once the agent says more or the user asks again): a usage limit (`limitStop`), or an API error the turn
 * ended on (an overloaded or failing API, a dropped connection), whose request may not have been carried out: it is
 * to be retried. The newer of the two when both were recorded; a limit whose reset is past at `now` is said so.
 */
export function turnStop(summaries: Summaries | undefined, asked: Asked, now?: Date): string | null {
  const by = turnStoppedBy(summaries, asked);
  if (by === 'usage_limit') return limitStop(summaries, asked, now);
  return by ? apiErrorStop(summaries, asked) : null;
}

/** What stopped the agent's last turn, while that holds (`turnStop` says it in words); a full context is told apart. */
export type TurnStopper = 'api_error' | 'context_full' | 'usage_limit';

/**
 * What `turnStop` names as having stopped the agent's last turn: the API error it ended on (`context_full` when it is
 * a full context's) or the usage limit, the newer of the two while it holds; null when neither does.
 */
export function turnStoppedBy(summaries: Summaries | undefined, asked: Asked): TurnStopper | null {
  const error = summaries?.api_error;
  const limit = summaries?.usage_limit;
  if (!summaries) return null;
  const errorNewer = !limit || (error && Date.parse(error.timestamp) > Date.parse(limit.timestamp));
  if (errorNewer && error && !overSince(summaries, error, asked))
    return isContextFull(error.text) ? 'context_full' : 'api_error';
  return limit && !overSince(summaries, limit, asked) ? 'usage_limit' : null;
}

/**
 * The API error the agent's last turn ended on, while that holds (nothing said or asked since), as what to do about
 * it: its request may not have been carried out, and is to be retried. A full context ("Prompt is too long") is no
 * passing failure: the same step sent again fills the context again, so the session reading this (which goes on from
 * the compiled context) is told what happened and to do that step in smaller parts. Null when none holds.
 */
export function apiErrorStop(summaries: Summaries | undefined, asked: Asked): string | null {
  const error = summaries?.api_error;
  if (!summaries || !error || overSince(summaries, error, asked)) return null;
  if (isContextFull(error.text))
    return `the agent's context filled up on the last turn (${apiErrorWords(error.text)}), so this session goes on from the compiled context: do the step that turn was on in smaller parts (read or print less at once), not again as it was`;
  return `the last turn ended on an API error (${apiErrorWords(error.text)}): the request it was on may not have been carried out; retry it`;
}

/**
 * An error recorded from the agent's own words (`agent_error`, said `agent: <its words>`) that is its API failing
 * (`transientApiError`), its request aborted on the way ("API Error: Request was aborted.", which `transientApiError`
 * leaves out: nothing to retry), or a usage limit's notice (recorded as such an error before limits were told apart):
 * no fault of the work, so nothing for an agent to fix; it passes once the agent goes on. A full context is not one:
 * the step that filled it is to be done in smaller parts.
 */
export const apiFailureError = (e: { error_type: string; error_message: string }): boolean => {
  if (e.error_type !== 'agent_error') return false;
  const words = e.error_message.replace(/^[^:\n]*:\s*/, '');
  return (
    transientApiError(words) || isUsageLimit(words) || /^\s*API Error:?\s*Request was aborted\b/i.test(words)
  );
};

/** What an API failure recorded as an error is to whoever reads the errors (`apiFailureStanding`). */
export type ApiFailureStanding = 'cut_off' | 'over';

/**
 * What an API failure recorded as an error (`apiFailureError`) is to whoever reads the errors: `cut_off`, the
 * interruption of the agent's last turn, while that holds (nothing said or asked since: the turn's stop, which
 * `turnStop` says, as the errors need not); `over` once the agent went on after it (the extraction marked it fixed, or
 * its last message or a compaction came later) or the user asked again. Never an unresolved error of the work. Null
 * for any other error, which stands as its record says. Derived each time from the records as they are: an error once
 * recorded is not rewritten. The one rule for every place that shows errors (the briefing, details, status).
 */
export function apiFailureStanding(
  e: { error_type: string; error_message: string; resolution: string; timestamp: string },
  summaries: Summaries | undefined,
  asked: Asked,
): ApiFailureStanding | null {
  if (!apiFailureError(e)) return null;
  if (e.resolution !== 'unresolved') return 'over';
  return summaries && overSince(summaries, e, asked) ? 'over' : 'cut_off';
}

/**
 * Whether a notice is the limit already recorded (a hook's copy, then the transcript's): nothing said or asked since
 * it. The same notice after a new request is the limit stopping that turn too, recorded again.
 */
export function sameLimit(summaries: Summaries | undefined, text: string, asked: Asked): boolean {
  const limit = summaries?.usage_limit;
  return !!summaries && !!limit && limit.text.trim() === text.trim() && !overSince(summaries, limit, asked);
}
