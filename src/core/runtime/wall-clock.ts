/**
 * Wall-clock times in a named IANA time zone ("America/New_York", "UTC", "Etc/GMT+5") turned into instants, with the
 * runtime's own time-zone data (Intl): what an agent means by "resets 3pm (Europe/Berlin)".
 */

/** A time on a zone's clock; `month` counts from 0, as Date does. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatter(zone: string): Intl.DateTimeFormat | null {
  if (!formatters.has(zone)) {
    let f: Intl.DateTimeFormat | null;
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null; // a zone this runtime does not know
    }
    formatters.set(zone, f);
  }
  return formatters.get(zone) ?? null;
}

/** A clock time as a person reads it, "2026-11-30 14:00", with its seconds when asked ("2026-11-30 14:00:25"). */
export const clockWords = (c: WallClock & { second?: number }, seconds = false) =>
  `${c.year}-${String(c.month + 1).padStart(2, '0')}-${String(c.day).padStart(2, '0')} ${String(c.hour).padStart(2, '0')}:${String(c.minute).padStart(2, '0')}${seconds ? `:${String(c.second ?? 0).padStart(2, '0')}` : ''}`;

/** The zone's clock at instant `t` (whole seconds), or null for an unknown zone. */
export function clockAt(t: number, zone: string): (WallClock & { second: number }) | null {
  const f = formatter(zone);
  if (!f) return null;
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(t)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return {
    year: p.year ?? 0,
    month: (p.month ?? 1) - 1,
    day: p.day ?? 1,
    hour: (p.hour ?? 0) % 24,
    minute: p.minute ?? 0,
    second: p.second ?? 0,
  };
}

/** How far the zone's clock is ahead of UTC at instant `t`, in milliseconds. */
function offsetAt(t: number, zone: string): number | null {
  const whole = t - (((t % 1000) + 1000) % 1000);
  const c = clockAt(whole, zone);
  return c ? Date.UTC(c.year, c.month, c.day, c.hour, c.minute, c.second) - whole : null;
}

/**
 * The instant the zone's clock shows `w`, or null for an unknown zone. A time a clock change skips (2:30 on the
 * night clocks go forward) is read after the change: for a reset time, later is the safe side.
 */
export function wallClockAt(w: WallClock, zone: string): number | null {
  const asUtc = Date.UTC(w.year, w.month, w.day, w.hour, w.minute);
  const first = offsetAt(asUtc, zone);
  if (first === null) return null;
  const guess = asUtc - first;
  const second = offsetAt(guess, zone);
  if (second === null || second === first) return guess;
  const other = asUtc - second;
  return offsetAt(other, zone) === second ? other : Math.max(guess, other);
}

/**
 * How long ago a clock time said without a date may be and still mean the latest one: a notice is printed after the
 * limit was hit and gives its reset to the minute ("try again at 12:28 AM" at 00:28:32), and the agent's clock and
 * this one differ a little. Read as the next one, a reset seconds away would be waited for a whole day (or year).
 */
export const CLOCK_SLACK_MS = 5 * 60_000;

/**
 * The instant at which the zone's clock next shows `hour:minute`, or last showed it at most `CLOCK_SLACK_MS` before
 * `now` (yesterday's, today's or tomorrow's there).
 */
export function nextWallClock(
  time: { hour: number; minute: number },
  now: Date,
  zone: string,
): number | null {
  const today = clockAt(now.getTime(), zone);
  if (!today) return null;
  for (let days = -1; days <= 2; days++) {
    const t = wallClockAt({ ...today, day: today.day + days, ...time }, zone);
    if (t !== null && t > now.getTime() - CLOCK_SLACK_MS) return t;
  }
  return null;
}
