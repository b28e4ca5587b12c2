/**
 * Usage-limit errors (rate or plan limits) as agent CLIs report them, with the reset time when they give one:
 * Claude Code's `Claude AI usage limit reached|<epoch seconds>`, "resets 3pm", "try again at <ISO time>",
 * "retry after N seconds".
 */
const limitPattern =
  /usage limit|rate[ -]?limit|limit reached|quota (?:exceeded|reached)|too many requests|\b429\b|hit your (?:usage )?limit/i;

export interface UsageLimit {
  message: string;
  resets_at: string | null;
}

export function detectUsageLimit(text: string | null, now: Date): UsageLimit | null {
  if (!text || !limitPattern.test(text)) return null;
  return { message: text.slice(0, 500), resets_at: resetTime(text, now) };
}

function resetTime(text: string, now: Date): string | null {
  const epoch = text.match(/\|\s*(\d{10})(?:\d{3})?\b/);
  if (epoch?.[1]) return new Date(Number(epoch[1]) * 1000).toISOString();
  const iso = text.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})/);
  if (iso && !Number.isNaN(Date.parse(iso[0]))) return new Date(iso[0]).toISOString();
  const after = text.match(
    /(?:retry|try again) (?:after|in) (\d+)\s*(s|sec|seconds?|m|min|minutes?|h|hours?)\b/i,
  );
  if (after?.[1] && after[2]) {
    const unit = after[2][0]?.toLowerCase();
    const ms = Number(after[1]) * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1000);
    return new Date(now.getTime() + ms).toISOString();
  }
  const clock = text.match(/resets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*(?:\(?UTC\)?)?/i);
  if (clock?.[1]) {
    let h = Number(clock[1]) % 12;
    if (clock[3]?.toLowerCase() === 'pm') h += 12;
    else if (!clock[3]) h = Number(clock[1]);
    if (h > 23) return null;
    const t = new Date(now);
    t.setUTCHours(h, Number(clock[2] ?? 0), 0, 0);
    if (t.getTime() <= now.getTime()) t.setUTCDate(t.getUTCDate() + 1);
    return t.toISOString();
  }
  return null;
}

/** Prompt too long, context full, a compaction that could not free enough: the agent's own resume is useless. */
export const isContextFull = (text: string | null) =>
  !!text &&
  /prompt is too long|context (?:window )?(?:is )?(?:full|exceeded)|context_length_exceeded|maximum context length|input is too long/i.test(
    text,
  );

/** The agent could not find the session it was asked to resume. */
export const isDeadToken = (text: string | null) =>
  !!text &&
  /no conversation found|session (?:id )?not found|could not (?:find|resume) (?:the )?session|unknown session|invalid session/i.test(
    text,
  );
