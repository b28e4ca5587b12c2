import { BatonError, errorLine, type ErrorCode } from '../core/errors.js';
import { cutToWidth, displayWidth, padToWidth } from './display-width.js';

/** Exit codes: 0 ok, 1 error, 2 usage or ambiguous, 3 conflict with the workflow's state (lost race, illegal transition). */
export const exitCodes: Record<ErrorCode, number> = {
  invalid_input: 2,
  ambiguous: 2,
  not_found: 1,
  invalid_transition: 3,
  conflict: 3,
  unavailable: 1,
  internal: 1,
};

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};

/** Prints `value` as JSON with --json, else the human rendering. */
export function emit(io: Io, json: boolean, value: unknown, human: () => string): void {
  io.out(json ? JSON.stringify(value, null, 2) : human());
}

/** One clear line (plus details as JSON with --json), a stack only with --debug. */
export function reportError(io: Io, e: unknown, opts: { json: boolean; debug: boolean }): number {
  const err = BatonError.isInstance(e) ? e : new BatonError('internal', errorLine(e));
  if (opts.json)
    io.out(JSON.stringify({ error: { code: err.code, message: err.message, ...err.details } }, null, 2));
  io.err(`baton: ${err.message}`);
  if (opts.debug && e instanceof Error && e.stack) io.err(e.stack);
  return exitCodes[err.code];
}

/** A column `table` may cut to fit its width: never under `min` columns, at its end, or its start (a path). */
export interface Shrinkable {
  min: number;
  from?: 'end' | 'start';
}

/**
 * A plain text table with a header row, its columns lined up by the terminal columns their text takes (a Korean title
 * or an emoji takes two a character: `displayWidth`). With `fit`, the columns it names are cut (`…`), the widest
 * first, until the table is `fit.width` columns wide or they are at their `min`; the last column is free text that
 * runs on, counted as its header's width.
 */
export function table(
  headers: string[],
  rows: (string | number)[][],
  fit?: { width: number; shrink: Partial<Record<number, Shrinkable>> },
): string {
  let cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => displayWidth(r[i] ?? ''))));
  if (fit) {
    const last = headers.length - 1;
    const total = () =>
      widths.reduce((a, w, i) => a + (i === last ? displayWidth(headers[i] ?? '') : w), 0) + 2 * last;
    const room = (i: number) =>
      (widths[i] ?? 0) - Math.max(fit.shrink[i]?.min ?? Infinity, displayWidth(headers[i] ?? ''));
    for (let over = total() - fit.width; over > 0; over--) {
      const widest = widths.reduce((best, _, i) => (room(i) > room(best) ? i : best), 0);
      if (!(room(widest) > 0)) break;
      widths[widest]! -= 1;
    }
    cells = cells.map((r) => r.map((c, i) => cutToWidth(c, widths[i] ?? 0, fit.shrink[i]?.from)));
  }
  const line = (r: string[]) =>
    r
      .map((c, i) => padToWidth(c, widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(cells[0] ?? []), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/**
 * A count as people read it (`1,234,567`; a fraction to three places), `?` when unknown: the one number format of the
 * CLI's text. Grouped by hand: `toLocaleString` loads Intl's number formatting, tens of milliseconds of every short
 * command that prints a count.
 */
export function thousands(n: number | null | undefined): string {
  if (n === null || n === undefined) return '?';
  const [whole = '', fraction] = String(Math.round(n * 1000) / 1000).split('.');
  return whole.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction ? `.${fraction}` : '');
}
