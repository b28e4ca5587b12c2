import { stoppedByLimit } from './runtime/usage-limit.js';
import type { Summary } from './schemas/records.js';

interface Summaries {
  compaction: Summary | null;
  last_message: Summary | null;
  usage_limit?: Summary | null;
}

/** Whether the agent said more after the notice (a last message, a compaction summary): it works again. */
const saidSince = (s: Summaries, limit: Summary) =>
  [s.last_message, s.compaction].some((x) => !!x && Date.parse(x.timestamp) > Date.parse(limit.timestamp));

/**
 * Why the agent's last turn stopped when a usage limit stopped it ("stopped by a usage limit, resets at ..."), while
 * that holds: once the agent says more after the notice, the next session works and the limit is over (null).
 */
export function limitStop(summaries: Summaries | undefined): string | null {
  const limit = summaries?.usage_limit;
  if (!summaries || !limit || saidSince(summaries, limit)) return null;
  return stoppedByLimit(limit.text, limit.resets_at ?? null);
}

/** Whether a notice is the limit already recorded (a hook's copy, then the transcript's): nothing said since it. */
export function sameLimit(summaries: Summaries | undefined, text: string): boolean {
  const limit = summaries?.usage_limit;
  return !!summaries && !!limit && limit.text.trim() === text.trim() && !saidSince(summaries, limit);
}
