/**
 * How a JSON file is laid out, read from its text, so a file Baton edits keeps its own layout: a one-line
 * `.mcp.json` stays one line, a settings file indented with tabs keeps its tabs, a file without a final newline
 * (Claude Code writes ~/.claude.json so) gets none. Writing a value back in the style it was read in gives the file
 * its bytes back whenever a program serialized it (`JSON.stringify`, Python's `json.dump`), as most of them are.
 */
export interface JsonStyle {
  /** The indentation of one level; null: all on one line. */
  indent: string | null;
  /** What follows a key's colon on one line (`": "` of Python's `json.dumps`, or none). */
  colon: string;
  /** What follows a comma on one line. */
  comma: string;
  /** The text after the closing brace (a newline, or nothing). */
  end: string;
}

/** The style of a file Baton creates: two-space indented, like the agents write theirs, and a final newline. */
export const DEFAULT_STYLE: JsonStyle = { indent: '  ', colon: ': ', comma: ', ', end: '\n' };

/** The style `text` is written in (DEFAULT_STYLE for an empty text). */
export function jsonStyle(text: string): JsonStyle {
  const body = text.trimEnd();
  if (!body) return DEFAULT_STYLE;
  const end = text.slice(body.length);
  const nested = /\n([ \t]+)\S/.exec(body);
  if (body.includes('\n')) return { ...DEFAULT_STYLE, indent: nested?.[1] ?? DEFAULT_STYLE.indent, end };
  // one line: the separators it uses outside strings (`"a":1` or `"a": 1`)
  const bare = body.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return { indent: null, colon: /: /.test(bare) ? ': ' : ':', comma: /, /.test(bare) ? ', ' : ',', end };
}

/** `value` as JSON in `style`. */
export function formatJson(value: unknown, style: JsonStyle): string {
  return `${format(value, style, '')}${style.end}`;
}

function format(value: unknown, style: JsonStyle, at: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const list = Array.isArray(value);
  const items = list
    ? value.map((v) => (v === undefined ? null : v))
    : Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const [open, close] = list ? ['[', ']'] : ['{', '}'];
  if (!items.length) return `${open}${close}`;
  const inner = style.indent === null ? '' : at + style.indent;
  const one = (item: unknown) => {
    if (list) return format(item, style, inner);
    const [k, v] = item as [string, unknown];
    return `${JSON.stringify(k)}${style.indent === null ? style.colon : ': '}${format(v, style, inner)}`;
  };
  if (style.indent === null) return `${open}${items.map(one).join(style.comma)}${close}`;
  return `${open}\n${items.map((i) => inner + one(i)).join(',\n')}\n${at}${close}`;
}
