/**
 * Context windows of the models whose transcripts do not state it (Claude Code transcripts never do). A profile's
 * `--context-window` overrides this; unknown models get none, and utilisation is then not computed.
 */
export function contextWindowOf(model: string | null): number | null {
  if (!model) return null;
  if (/\[1m\]/i.test(model)) return 1_000_000;
  if (/^claude-/i.test(model)) return 200_000;
  if (/^(gpt-5|o3|o4)/i.test(model)) return 272_000;
  return null;
}
