import { NEVER_RETURNED, SPOKE_AFTER } from '../call-text.js';
import { clip, clipEnds } from '../clip.js';

/**
 * Cuts a long summary to `max` characters the way a reader would: a compaction summary in Claude Code's numbered
 * sections (1. Primary Request and Intent ... 7. Pending Tasks, 8. Current Work, 9. Optional Next Step) keeps the
 * sections that say where the work stands and what comes next, whole, and leaves out the long ones (the files and
 * their code, every user message) as their heading and size, in their place (a run of them in one line). Any other
 * text keeps its head; with `keepEnd` (an agent's last message) also the paragraph it ends on, when that is short
 * (`headAndEnd`). With `past` (a compaction the session went on after: newer sections of the briefing say where the
 * work stands now), where it stood then is left out whatever the room (its sections, and the lines of the others
 * labelled as in progress), said in one line, and what was asked, the user's words and what went wrong come first.
 */
export function fitSummary(
  text: string,
  max: number,
  opts: { keepEnd?: boolean; past?: boolean } = {},
): { text: string; cut: number } {
  const sections = numberedSections(text);
  const staleLines = (p: { title: string; body: string }) =>
    ownWords.test(p.title) ? [] : (p.body.match(inProgress) ?? []);
  const dated = (p: { title: string; body: string }) => superseded.test(p.title) || staleLines(p).length > 0;
  if (
    text.length <= max &&
    !(opts.past && sections.some((s) => dated({ title: s.title, body: text.slice(s.start, s.end) })))
  )
    return { text, cut: 0 };
  if (sections.length < 3) return opts.keepEnd ? headAndEnd(text, max) : headOf(text, max);
  const all = [
    { title: BEFORE, body: text.slice(0, sections[0]!.start) },
    ...sections.map((s) => ({ ...s, body: text.slice(s.start, s.end) })),
  ];
  const stale = opts.past ? all.filter((p) => superseded.test(p.title)) : [];
  // of a past compaction, the lines of the other sections that say what was under way then ("In progress: ...")
  const staleIn = opts.past ? all.filter((p) => !stale.includes(p) && staleLines(p).length) : [];
  const parts = all
    .filter((p) => !stale.includes(p))
    .map((p) => (staleIn.includes(p) ? { ...p, body: p.body.replace(inProgress, '') } : p));
  const staleNames = [
    ...stale.map((p) => p.title),
    ...staleIn.map((p) => `what ${p.title} said was in progress`),
  ];
  const staleNote = staleNames.length
    ? `(${staleNames.join(', ')}: left out, where the work stood then, older than the Last State)`
    : '';
  if (staleNote) max -= staleNote.length + 2;
  const rank = (title: string) => rankIn(opts.past ? pastPriorities : priorities, title);
  const order = parts.map((_, i) => i).sort((a, b) => rank(parts[a]!.title) - rank(parts[b]!.title) || a - b);
  // the sections left out are named in place, a run of them in one line: room is set aside for naming them all in
  // one, and for the line more each section kept may split a run into; a section kept takes its name off the line
  const sizes = (list: typeof parts) => list.map((p) => ({ title: p.title, chars: p.body.trimEnd().length }));
  const back = (i: number) => parts[i]!.title.length + 2 - SPLIT;
  const kept = new Map<number, string>();
  let room = max - (leftOut(sizes(parts.filter((p) => p.body.trim()))).length + 2);
  for (const i of order) {
    const p = parts[i]!;
    const body = p.body.trimEnd();
    if (!body) continue;
    if (body.length + 2 <= room + back(i)) {
      kept.set(i, body);
      room -= body.length + 2 - back(i);
    } else if (rank(p.title) < 3 && room + back(i) > 300) {
      // a section the reader needs first, too long for what is left: its head, cut at a word
      const head = clip(body, room + back(i) - 2);
      kept.set(i, head);
      room -= head.length + 2 - back(i);
    } else if (opts.past && rank(p.title) === 0) break; // what was asked not even in part: nothing after it alone
  }
  const out: string[] = [];
  // the sections left out one after another, said in one line
  let run: typeof parts = [];
  const endRun = () => {
    if (run.length) out.push(leftOut(sizes(run)));
    run = [];
  };
  let shown = 0;
  for (const [i, p] of parts.entries()) {
    const k = kept.get(i);
    if (k !== undefined) {
      endRun();
      out.push(k);
      shown += Math.min(k.length, p.body.trimEnd().length);
    } else if (p.body.trim()) run.push(p);
  }
  endRun();
  const withNote = (t: string) => (staleNote ? `${t}\n\n${staleNote}` : t);
  const joined = out.join('\n\n');
  if (joined.length <= max)
    return { text: withNote(joined), cut: Math.max(0, text.trimEnd().length - shown) };
  // past the room all the same (the names alone are longer): the head of the text, or of a past one nothing
  return opts.past ? { text: '', cut: text.trimEnd().length } : headOf(text, max);
}

/**
 * What a section kept may add to the names of those left out: the line of a run it splits in two (the size said
 * again, "(12345 characters left out here)", and the blank line before it).
 */
const SPLIT = 40;

/** The name the text before the first section goes by when it is left out (Claude Code's "Analysis:"). */
const BEFORE = 'Before the sections';

/**
 * What to keep first: where the work stands and what is next, then what was asked and the user's own words (the first
 * of them often the goal the session began on, which the request after the compaction no longer says), then what went
 * wrong; the code listings and the concepts after them.
 */
const priorities: RegExp[] = [
  /current work/i,
  /next step/i,
  /pending/i,
  /request|intent/i,
  /user messages/i,
  /error|fix/i,
  /problem/i,
  /concept/i,
];

/** The sections that say where the work stood: of a compaction the session went on after, out of date. */
const superseded = /current work|next step|pending/i;

/** The section of the user's words, quoted: never cut for what it says. */
const ownWords = /user messages/i;

/**
 * A line of another section that says what was under way then, a label and a colon ("- In progress: Refactoring to
 * ..."): of a compaction the session went on after, as out of date as its Current Work.
 */
const inProgress =
  /^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(?:in progress|ongoing|still to do|not yet done|pending)(?:\*\*)?[ \t]*:[^\n]*(?:\n|$)/gim;

/**
 * What to keep first of a compaction the session went on after: what was asked, the user's words, what went wrong, how
 * it was solved; the concepts, then the files and their code, last.
 */
const pastPriorities: RegExp[] = [/request|intent/i, /user messages/i, /error|fix/i, /problem/i, /concept/i];

function rankIn(order: readonly RegExp[], title: string): number {
  if (title === BEFORE) return order.length + 2;
  const i = order.findIndex((p) => p.test(title));
  return i >= 0 ? i : order.length + 1;
}

/** Sections left out, one after another, in one line: `3. Files and Code Sections: (5232 characters left out here)`. */
const leftOut = (run: { title: string; chars: number }[]) =>
  `${run.map((r) => r.title).join('; ')}: (${run.reduce((n, r) => n + r.chars, 0)} characters left out here)`;

/**
 * Top-level headings numbered 1, 2, 3 ... in order, each ending with a colon as Claude Code writes them ("## 1.
 * Primary Request and Intent:", "7. Pending Tasks:"); a numbered list item inside a section ("2. Add tests") is not.
 */
function numberedSections(text: string): { title: string; start: number; end: number }[] {
  const heading = /^(?:#{1,4}[ \t]*)?(\d{1,2})\.[ \t]+([A-Z][A-Za-z ,&/()-]{2,60}?):[ \t]*$/gm;
  const found: { title: string; start: number }[] = [];
  for (const m of text.matchAll(heading)) {
    if (Number(m[1]) !== found.length + 1) continue;
    found.push({ title: `${m[1]}. ${m[2]!.trim()}`, start: m.index });
  }
  return found.map((s, i) => ({ ...s, end: found[i + 1]?.start ?? text.length }));
}

/**
 * The head of an agent's last message and the paragraph it ends on: what it asks the user, what it proposes next,
 * the calls it left running ("The transcript ends before this call returned ..."), which a head alone cuts away. The
 * ending is kept when it takes at most half the room (else the question it ends on, its last sentence), and is not
 * code (a fence in it or around it); otherwise the head alone. The calls that never returned come first whatever
 * their length (both ends of them when the room is short: the commit or the push to check is the next step).
 */
function headAndEnd(text: string, max: number): { text: string; cut: number } {
  const body = text.trimEnd();
  // the user spoke after the message, the agent at work on that when the transcript ends: what it did since, and
  // the calls it left open, are said last, newer than all the message says (its next steps included)
  const spoke = body.lastIndexOf(SPOKE_AFTER);
  if (spoke > 0) return newestFirst(body, spoke, max);
  const next = nextSection(body, max);
  if (next) return next;
  // the calls left open are said last, in a paragraph of their own or after a sentence ("The session was cut off
  // before the agent said anything. The transcript ends before ...")
  const calls = body.lastIndexOf(NEVER_RETURNED);
  const lastBreak = [...body.matchAll(/\n[ \t]*\n/g)].at(-1);
  if (!lastBreak && calls < 0) return headOf(text, max);
  const split = calls >= 0 ? calls : (lastBreak?.index ?? 0) + (lastBreak?.[0].length ?? 0);
  const before = body.slice(0, calls >= 0 ? calls : (lastBreak?.index ?? 0)).trimEnd();
  const last = body.slice(split).trim();
  const question = /\?$/.test(last) ? (last.split(/(?<=[.!?])\s+(?=\S)/).at(-1) ?? '') : '';
  const open = calls >= 0;
  const end = open
    ? clipEnds(last, max)
    : last.length <= max / 2
      ? last
      : question.length <= max / 2
        ? question
        : '';
  const fences = (t: string) => t.match(/^[ \t]*```/gm)?.length ?? 0;
  if (!end || (!open && (fences(last) > 0 || fences(before) % 2 === 1))) return headOf(text, max);
  // the question alone: the rest of its paragraph is left out, and said so
  const join = end === last || open ? '\n\n' : '\n\n… ';
  const room = max - end.length - join.length;
  // no room left for the message's head (or none before the calls): the calls alone, the rest counted as left out
  if (open && (room < 40 || !before)) return { text: end, cut: body.length - end.length };
  const head = before.length <= room ? { text: before, cut: 0 } : headOf(before, room);
  return { text: `${head.text}${join}${end}`, cut: body.length - (before.length - head.cut) - end.length };
}

/**
 * A last message the user spoke after (`spoke`: where that is said), the agent at work on it when the transcript
 * ends: the calls it left open first (both ends when the room is short), then what its calls on it came to, then the
 * message's head, each in the room the newer ones leave (none under 40 characters).
 */
function newestFirst(body: string, spoke: number, max: number): { text: string; cut: number } {
  const open = body.indexOf(NEVER_RETURNED, spoke);
  const message = body.slice(0, spoke).trimEnd();
  const newer = [
    body.slice(spoke, open < 0 ? undefined : open).trim(),
    open < 0 ? '' : body.slice(open).trim(),
  ];
  // the message keeps a quarter of the room for its head (what the user answered), when that says something
  const own = Math.min(message.length, Math.floor(max / 4));
  const kept = own >= 40 ? own : 0;
  // the calls left open leave room for the words that say the user spoke after the message, when they can
  const quoted = newer[0]?.indexOf('", ') ?? -1;
  const said = open < 0 ? 0 : Math.min(quoted < 0 ? SPOKE_AFTER.length : quoted + 2, 100) + 4;
  const shown: string[] = [];
  let room = max - kept;
  let cut = body.length;
  for (const part of [...newer.filter(Boolean).reverse(), message]) {
    if (part === message) room += kept;
    if (shown.length && room < 40) break;
    const fits = !shown.length && part !== message && room - said >= 60 ? room - said : room;
    // the newest part whole, or both its ends (the calls to check); an older one its head
    const text = part.length <= fits ? part : shown.length ? headOf(part, fits).text : clipEnds(part, fits);
    shown.unshift(text);
    cut -= part.length <= fits ? part.length : Math.max(0, text.length - 2);
    room -= text.length + 2;
  }
  return { text: shown.join('\n\n'), cut: Math.max(0, cut) };
}

/**
 * A heading of the part of a last message that says what is left: "### Next Steps:", "**Remaining work**", "Open
 * questions:" (a markdown heading, a bold line, or a line of its own ending on a colon).
 */
const nextHeading =
  /^[ \t]*(?:#{1,6}[ \t]+)?(?:\*\*|__)?[ \t]*(?:next steps?|what'?s next|what remains|remaining(?: work| tasks| steps)?|still to do|left to do|to-?dos?|pending|open questions?|follow[- ]?ups?)\b[^\n]{0,40}$/gim;
/**
 * Where such a part ends: a rule (`---`), or a heading as high as its own (`## Next steps` ends at the next `#` or
 * `##`); a part under a bold line or a colon also at the next bold line of its own after a blank line.
 */
function partEnd(part: string, heading: string): number {
  const level = /^[ \t]*(#{1,6})[ \t]/.exec(heading)?.[1]?.length;
  const ends = level
    ? new RegExp(`\\n[ \\t]*(?:#{1,${level}}[ \\t]|-{3,}[ \\t]*(?:\\n|$))`)
    : /\n[ \t]*(?:#{1,6}[ \t]|-{3,}[ \t]*(?:\n|$))|\n[ \t]*\n(?=[ \t]*\*\*[^\n]*\*\*[ \t]*:?[ \t]*(?:\n|$))/;
  const m = ends.exec(part.slice(heading.length));
  return m ? heading.length + m.index : part.length;
}

/**
 * The head of a last message and its part that says what is left ("### Next Steps:" and its list), which the sign-off
 * after it would otherwise push out: the part in at most 60% of the room (its head when longer), the message's head in
 * the rest, and a question the message ends on; null when the message has no such part, or it is code, or a heading
 * is all the room holds of it.
 */
function nextSection(body: string, max: number): { text: string; cut: number } | null {
  const heading = [...body.matchAll(nextHeading)].filter((m) => /[:*_#]/.test(m[0])).at(-1);
  if (!heading || heading.index === 0) return null;
  const rest = body.slice(heading.index);
  const whole = rest.slice(0, partEnd(rest, heading[0])).trim();
  if (/^[ \t]*```/m.test(whole)) return null;
  // too long for 60% of the room: its head, as long as that holds more than the heading
  const part = whole.length <= max * 0.6 ? whole : clip(whole, Math.floor(max * 0.6));
  if (part.replace(/…$/, '').trim().length < heading[0].trim().length + 20) return null;
  const before = body.slice(0, heading.index).trimEnd();
  if ((before.match(/^[ \t]*```/gm)?.length ?? 0) % 2 === 1) return null;
  // a question the message ends on after that part is kept too: the user's answer is what the work waits for
  const after = rest.slice(whole.length).trim();
  const question = /\?$/.test(after) ? (after.split(/(?<=[.!?])\s+(?=\S)/).at(-1) ?? '') : '';
  const asked = question && question.length <= max * 0.2 ? `\n\n… ${question}` : '';
  const room = max - part.length - 2 - asked.length;
  if (room < 40) return null;
  const head = before.length <= room ? { text: before, cut: 0 } : headOf(before, room);
  return {
    text: `${head.text}\n\n${part}${asked}`,
    cut:
      body.length -
      (before.length - head.cut) -
      part.replace(/…$/, '').length -
      (asked ? question.length : 0),
  };
}

/** The text's head cut at a word's end with an ellipsis (`clip`: a code block it cuts is closed). */
function headOf(text: string, max: number): { text: string; cut: number } {
  const head = clip(text, Math.max(1, max));
  // what is shown of the text: the head without its ellipsis (and the fence closing a block it cut)
  return { text: head, cut: Math.max(0, text.length - head.replace(/…(?:\n```)?$/, '').length) };
}
