import { BatonError, errorLine, type ErrorCode } from '../core/errors.js';

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

/** A plain text table with a header row. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
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
