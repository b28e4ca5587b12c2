import { CLOCK_SLACK_MS, clockAt, clockWords, nextWallClock, wallClockAt } from './wall-clock.js';
import { agentInSession, agentLabel } from '../agent-label.js';

/**
 * Usage-limit errors (rate or plan limits) as agent CLIs report them, with the reset time when they give one:
 * Claude Code's `Claude AI usage limit reached|<epoch seconds>`, "You've hit your session limit · resets 3pm
 * (America/Bogota)", "Weekly limit reached · resets Jan 12, 10:59am (Asia/Seoul)", "This turn is paused until the
 * limit resets in 32m"; Codex's "try again in 2 days 17 hours 14 minutes", "try again at Jul 5th, 2026 8:19 PM", the
 * API's `"resets_at": <epoch>`; "retry after N seconds", an ISO time.
 */
const limitPattern =
  /usage[ _]limit|rate[ _-]?limit|limit reached|quota (?:exceeded|reached)|too many requests|\b429\b|hit your (?:[\w-]+ )?limit/i;

/**
 * Words that name a plan's usage limit: Codex's "You've hit your usage limit. ...", Claude Code's "Claude AI usage
 * limit reached", "5-hour limit reached", an API's "usage_limit_reached", "quota exceeded".
 */
const planLimitWords =
  /usage[ _]limit|hit your (?:[\w-]+ )?limit|limit reached|quota (?:exceeded|reached)|insufficient_quota/i;

/**
 * The API's own rate limit, a burst that passes within a minute or so: an API failure to wait out and go on from
 * (`transientApiError`), not a plan's usage limit, whose notice names the plan's limit and when it resets. Claude
 * Code's `API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the
 * rate limit for your organization ... of 40,000 input tokens per minute ..."}}`, a limit counted per minute or
 * second; Codex's "exceeded retry limit, last status: 429 Too Many Requests" (its own retries of a 429 ran out:
 * Codex says a plan's limit in other words, "You've hit your usage limit"). Words that name a usage limit beside
 * either make it one.
 */
export const isRateBurst = (text: string | null | undefined) =>
  !!text &&
  !planLimitWords.test(text) &&
  ((/\b429\b|rate[ _-]?limit/i.test(text) &&
    /\b(?:tokens|requests) per (?:minute|second)\b|\bper-(?:minute|second)\b/i.test(text)) ||
    /\bexceeded retry limit, last status:\s*429\b/i.test(text));

/**
 * Whether an error's words are a usage limit's (the words of an error only: prose may name a limit). A rate limit per
 * minute is not one (`isRateBurst`).
 */
export const isUsageLimit = (text: string | null) => !!text && limitPattern.test(text) && !isRateBurst(text);

/**
 * A message that is a limit notice, not the agent's words about one: short, opening as the agents' notices do
 * ("Claude AI usage limit reached|...", "You've hit your session limit · ...", "5-hour limit reached ∙ ...", Codex's
 * "🖐 You've hit your usage limit. ..."), and saying when it lifts as they do (`|<epoch>`, "· resets 3pm", "will
 * reset at", "try again at/in"): "Rate limit reached on the GitHub API was the cause: I added a backoff" is the
 * agent's answer. A Stop hook's last message is the notice when the limit ended the turn.
 */
export const isLimitNotice = (text: string | null) =>
  !!text &&
  text.trim().length <= 500 &&
  /^\W{0,4}(?:API Error:?\s*)?(?:Claude (?:AI )?usage limit reached\b|you(?:'|’)ve hit your\b.{0,30}?\blimit\b|(?:[\w-]+ ){1,2}limit reached\b)/i.test(
    text.trim(),
  ) &&
  /\|\s*\d{9,}|[·∙•|]\s*resets\b|\b(?:will reset|resets? (?:at|in|on))\b|\btry again (?:at|in|later)\b/i.test(
    text,
  );

export interface UsageLimit {
  message: string;
  resets_at: string | null;
}

/**
 * `now` is when the notice was given (a clock time without a date is the next one after it, or one a few minutes
 * before it: `nextWallClock`); `zone` is the IANA time zone a clock time without one is read in: the agent prints its
 * reset time in the zone of the machine it runs on, usually naming it ("resets 3pm (Europe/Berlin)"); a zone it names
 * wins. UTC by default. A zone named that this runtime does not know gives no time (`resetSaid` has the words).
 */
export function detectUsageLimit(
  text: string | null,
  now: Date,
  zone: string | (() => string) = 'UTC',
): UsageLimit | null {
  if (!text || !isUsageLimit(text)) return null;
  return {
    message: text.slice(0, 500),
    resets_at: resetTime(text, now, typeof zone === 'string' ? zone : zone()),
  };
}

let zoneHere: string | undefined;
/**
 * The IANA time zone of this machine's clock. Asking the runtime for it loads its time-zone data, about 15 ms of a
 * short-lived hook, so it is asked once and only when a notice or a reset is read: pass the function itself where a
 * zone may not be needed (`detectUsageLimit(text, now, machineZone)`).
 */
export const machineZone = (): string => (zoneHere ??= Intl.DateTimeFormat().resolvedOptions().timeZone);

/** The reset a notice names, in its own words ("3:40pm (Europe/Paris)", "Jan 12, 10:59am (Asia/Seoul)"), or null. */
export function resetSaid(text: string): string | null {
  return clockPattern.exec(text)?.[1]?.trim() ?? null;
}

/** A notice's reset in UTC's own words ("3pm (UTC)", "15:00 UTC", "3pm (Etc/UTC)"). */
const onUtcClock = (said: string) => /\b(?:Etc\/)?(?:UTC|GMT)\)?\s*$/.test(said);

/**
 * A reset time, said one way wherever Baton says one: as the agent's notice said it, which is how the user saw it
 * ("3pm (Europe/Berlin)"), with the instant in UTC when it is known ("..., which is 2026-11-30 14:00 UTC"). An
 * instant alone (an epoch, "in 32m", an ISO time) is said the same way on `zone`'s clock, the zone of the machine
 * where a person reads it ("2026-11-30 15:00 (Europe/Berlin), which is 2026-11-30 14:00 UTC"), in UTC alone
 * without a zone or where that clock is UTC's. Null when neither is known.
 */
export function resetWords(
  notice: string | null,
  resetsAt: string | null,
  zone: string | null = null,
): string | null {
  const said = notice ? resetSaid(notice) : null;
  const t = resetsAt ? Date.parse(resetsAt) : NaN;
  if (Number.isNaN(t)) return said ?? resetsAt;
  // said to the second when it has seconds (an epoch's 15:45:46), neither a later minute (15:46 reads as still ahead
  // at 15:45:50) nor an earlier one (a retry at 15:45 fails); a fraction of a second is cut
  const whole = Math.floor(t / 1000) * 1000;
  const seconds = whole % 60_000 !== 0;
  const utc = new Date(whole)
    .toISOString()
    .slice(0, seconds ? 19 : 16)
    .replace('T', ' ');
  const local = zone && !said ? clockAt(whole, zone) : null;
  const there =
    local && clockWords(local, seconds) !== utc ? `${clockWords(local, seconds)} (${zone})` : null;
  // words already on UTC's clock ("3pm (UTC)") say nothing the instant does not: the instant alone, with its date
  const first = said && !onUtcClock(said) ? said : said ? null : there;
  return first ? `${first}, which is ${utc} UTC` : `${utc} UTC`;
}

/**
 * What stopped the session, said once for whoever reads what happened: the reset as `resetWords` says it (a clock
 * time without a zone was read in the machine's, a notice with a date reads by itself), else that none was read from
 * it. No zone of a machine here: the next session may run on another, so an instant alone is said in UTC. Given `now`
 * (a person asking how things stand), a reset already past is said as past, with what that allows. `agent`: whose
 * limit it is, named when known, with the Baton `session` it stopped when known ("of Claude Code, session 2").
 */
export function stoppedByLimit(
  notice: string,
  resetsAt: string | null,
  now?: Date,
  agent?: string | null,
  session?: number | null,
): string {
  const words = resetWords(notice, resetsAt);
  // whose limit: in a workflow two agents take turns on, another agent is not stopped by it
  const limit = `a usage limit${agent ? ` of ${agentInSession(agent, session)}` : ''}`;
  if (words && now && resetsAt && Date.parse(resetsAt) <= now.getTime())
    return `stopped by ${limit}${agent && session ? ',' : ''} that has reset since (at ${words}): ${agent ? agentLabel(agent) : 'the agent'} can go on`;
  return words
    ? `stopped by ${limit}, resets at ${words}`
    : `stopped by ${limit} (no reset time read from its notice)`;
}

const unitMs: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
/** One part of a duration: "5 days", "22h", "1m" in "1m12.5s" (a part may run straight into the next one). */
const durationPart =
  /(\d+(?:\.\d+)?)\s*(d(?:ays?)?|h(?:ours?|rs?)?|m(?:in(?:ute)?s?)?(?!s\b)|s(?:ec(?:ond)?s?)?)(?![a-z])/gi;

/** "5 days 22 hours 11 minutes", "90 s", "1h 30m": milliseconds, or null when no part reads as one. */
function duration(text: string): number | null {
  let ms = 0;
  let found = false;
  for (const m of text.matchAll(durationPart)) {
    const unit = m[2]?.[0]?.toLowerCase() ?? '';
    ms += Number(m[1]) * (unitMs[unit] ?? 0);
    found = true;
  }
  return found ? ms : null;
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A clock time after "resets", "reset at" or "try again at", with an optional date before it ("Jan 12,", "Jul 5th,
 * 2026") and an optional zone after it ("(America/New_York)", "(UTC)"). The clock has its minutes or am/pm: a bare
 * number is a day of a date this does not read ("try again at 10 de jul. de 2026, 11:52"), and no time is better
 * than a wrong one.
 */
const clockPattern =
  /(?:resets?|try again)\s+(?:at\s+|on\s+)?((?:([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?(?:at\s+)?)?(?=\d{1,2}(?::\d{2}|\s*[ap]m\b))(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([^()\s]+)\))?)/i;

function clockTime(text: string, now: Date, zone: string): string | null {
  const c = clockPattern.exec(text);
  if (!c?.[5]) return null;
  const month = c[2] ? months.indexOf(c[2].toLowerCase()) : -1;
  if (c[2] && month < 0) return null;
  const hour12 = Number(c[5]);
  const ampm = c[7]?.toLowerCase();
  const hour = ampm ? (hour12 % 12) + (ampm === 'pm' ? 12 : 0) : hour12;
  const minute = Number(c[6] ?? 0);
  if (hour > 23 || minute > 59) return null;
  const named = c[8] ?? null;
  const time = { hour, minute };
  const at = (z: string) =>
    month >= 0
      ? dated({ month, day: Number(c[3]), year: c[4] ? Number(c[4]) : null, ...time }, now, z)
      : nextWallClock(time, now, z);
  // a zone the agent named that this runtime does not know ("Mars/Olympus") gives no time: read in another zone it
  // would be a wrong one, and the words keep the zone's name (resetSaid)
  const t = named ? at(named) : (at(zone) ?? at('UTC'));
  return t === null ? null : new Date(t).toISOString();
}

/**
 * A dated reset: that day at that time, in its year; without a year, the next such day, or the last one when it was at
 * most `CLOCK_SLACK_MS` ago (as `nextWallClock` reads a clock time without a date).
 */
function dated(
  d: { month: number; day: number; year: number | null; hour: number; minute: number },
  now: Date,
  zone: string,
): number | null {
  const at = (year: number) => wallClockAt({ ...d, year }, zone);
  if (d.year !== null) return at(d.year);
  for (let year = now.getUTCFullYear() - 1; year <= now.getUTCFullYear() + 1; year++) {
    const t = at(year);
    if (t === null) return null;
    if (t > now.getTime() - CLOCK_SLACK_MS) return t;
  }
  return null;
}

function resetTime(text: string, now: Date, zone: string): string | null {
  const epoch = text.match(/(?:\|\s*|"?resets_at"?\s*[:=]\s*)(\d{10})(?:\d{3})?\b/);
  if (epoch?.[1]) return new Date(Number(epoch[1]) * 1000).toISOString();
  const inSeconds = text.match(/"?resets_in_seconds"?\s*[:=]\s*(\d+)/);
  if (inSeconds?.[1]) return new Date(now.getTime() + Number(inSeconds[1]) * 1000).toISOString();
  const iso = text.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})/);
  if (iso && !Number.isNaN(Date.parse(iso[0]))) return new Date(iso[0]).toISOString();
  const after = text.match(
    /(?:retry|try again|resets?) (?:after|in) ((?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*(?:and\s+)?)+)/i,
  );
  const ms = after?.[1] ? duration(after[1]) : null;
  if (ms !== null) return new Date(now.getTime() + ms).toISOString();
  return clockTime(text, now, zone);
}

/**
 * Prompt too long, context full, a compaction that could not free enough: the agent's own resume is useless. Claude
 * Code says "Prompt is too long"; Codex "Codex ran out of room in the model's context window", or its API's "Your input
 * exceeds the context window of this model".
 */
export const isContextFull = (text: string | null) =>
  !!text &&
  /prompt is too long|context (?:window )?(?:is )?(?:full|exceeded)|context_length_exceeded|maximum context length|input is too long|ran out of room in the model'?s context window|exceeds the context window/i.test(
    text,
  );

/** The agent could not find the session it was asked to resume. */
export const isDeadToken = (text: string | null) =>
  !!text &&
  /no conversation found|session (?:id )?not found|could not (?:find|resume) (?:the )?session|unknown session|invalid session/i.test(
    text,
  );
