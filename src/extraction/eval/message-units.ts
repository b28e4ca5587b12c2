/**
 * Where one statement of the agent is written on several lines, the evaluation counts those lines as one unit of
 * evidence, so a decision labelled at one of them is found at any: Claude Code writes one model message as a line
 * per content block (thinking, text, tool use) with the message's id; Codex writes each message twice (an
 * `event_msg` and a `response_item` with the same text) and its reasoning summaries both as `agent_reasoning` events
 * and inside one `reasoning` item. Gives, per line number, the first line of its unit; other lines stand alone.
 */
export function messageUnits(text: string): (line: number) => number {
  const first = new Map<string, number>();
  const unit = new Map<number, number>();
  text.split('\n').forEach((raw, i) => {
    const keys = keysOf(raw);
    if (keys.length === 0) return;
    const line = i + 1;
    const known = keys.map((k) => first.get(k)).filter((n): n is number => n !== undefined);
    const at = known.length ? Math.min(...known) : line;
    for (const k of keys) if (!first.has(k)) first.set(k, at);
    unit.set(line, at);
  });
  return (line) => unit.get(line) ?? line;
}

const said = (t: string) => `text:${t.replace(/\s+/g, ' ').trim()}`;

function keysOf(raw: string): string[] {
  let v: {
    message?: { id?: unknown };
    type?: unknown;
    payload?: { type?: unknown; message?: unknown; text?: unknown; content?: unknown; summary?: unknown };
  };
  try {
    v = JSON.parse(raw) as typeof v;
  } catch {
    return [];
  }
  if (typeof v?.message?.id === 'string' && v.message.id) return [`id:${v.message.id}`];
  const p = v?.payload;
  if (!p || typeof p !== 'object') return [];
  const texts = (list: unknown) =>
    Array.isArray(list)
      ? list.flatMap((c: { text?: unknown }) =>
          typeof c?.text === 'string' && c.text.trim() ? [c.text] : [],
        )
      : [];
  if (p.type === 'agent_message' || p.type === 'user_message')
    return typeof p.message === 'string' && p.message.trim() ? [said(p.message)] : [];
  if (p.type === 'agent_reasoning') return typeof p.text === 'string' && p.text.trim() ? [said(p.text)] : [];
  if (p.type === 'message') {
    const all = texts(p.content);
    return all.length ? [said(all.join('\n'))] : [];
  }
  if (p.type === 'reasoning') return texts(p.summary).map(said);
  return [];
}
