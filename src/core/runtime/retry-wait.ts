import { formatSpan } from '../duration.js';

/**
 * How many times in a row `baton run --auto-resume` waits for a limit that comes back with nothing done between (its
 * reset passed and the agent is still limited, or it named no reset), before the run stops and says so. With the
 * default first wait that is about four hours of waiting: a plan's session window is five hours at most, and a
 * limit still there after that is one a person should look at.
 */
export const RETRY_WAITS = 12;

/** The first of those waits, by default (`BATON_RETRY_WAIT`, config `retry_wait`). */
export const FIRST_RETRY_WAIT = '1m';

/**
 * How long to wait before going on the `n`-th time (0 first) with nothing done since: the first wait, doubled each
 * time up to 30 times it (1, 2, 4, 8, 16, then 30 minutes by default). A reset already past, or none named, never
 * makes a tight loop of agent sessions that each stop at once, and a limit that lasts is asked about less often.
 */
export const retryWait = (n: number, firstMs: number): number => Math.min(firstMs * 2 ** n, firstMs * 30);

/** How a wait is said each time: "waiting 2m00s before going on (wait 2 of 12, --auto-resume)". */
export const retryWaitWords = (n: number, ms: number): string =>
  `waiting ${formatSpan(ms)} before going on (wait ${n + 1} of ${RETRY_WAITS}, --auto-resume)`;

/**
 * Why a run that waited gives up, said the same way in its report and on its last line: "the usage limit persists
 * after 12 waits (4h01m in all) with nothing done between". `ms`: the time waited, when known.
 */
export const persistsWords = (what: string, waits: number, ms?: number): string =>
  `${what} persists after ${waits} waits${ms === undefined ? '' : ` (${formatSpan(ms)} in all)`} with nothing done between`;
