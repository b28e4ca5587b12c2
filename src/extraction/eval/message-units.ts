/**
 * Claude Code writes one model message as several lines, one per content block (thinking, text, tool use), all with
 * the message's id. A decision stated in the thinking of a message and labelled at its text (or the reverse) is
 * stated in one place: the evaluation counts the lines of one message as one unit of evidence. Gives, per line
 * number, the first line of its message; lines without a message id (Codex rollouts, user lines) stand alone.
 */
export function messageUnits(text: string): (line: number) => number {
  const first = new Map<string, number>();
  const unit = new Map<number, number>();
  text.split('\n').forEach((raw, i) => {
    if (!raw.includes('"id"')) return;
    let id: unknown;
    try {
      id = (JSON.parse(raw) as { message?: { id?: unknown } }).message?.id;
    } catch {
      return;
    }
    if (typeof id !== 'string' || id === '') return;
    const line = i + 1;
    if (!first.has(id)) first.set(id, line);
    unit.set(line, first.get(id) as number);
  });
  return (line) => unit.get(line) ?? line;
}
