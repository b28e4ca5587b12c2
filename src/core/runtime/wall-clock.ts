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

/** The first instant after `now` at which the zone's clock shows `hour:minute` (today or tomorrow there). */
export function nextWallClock(
  time: { hour: number; minute: number },
  now: Date,
  zone: string,
): number | null {
  const today = clockAt(now.getTime(), zone);
  if (!today) return null;
  for (let days = 0; days <= 2; days++) {
    const t = wallClockAt({ ...today, day: today.day + days, ...time }, zone);
    if (t !== null && t > now.getTime()) return t;
  }
  return null;
}
