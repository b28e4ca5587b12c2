import { counted } from '../core/index.js';

/**
 * The rule of the CLI's lists of workflows (`baton list`, `baton sessions`): a cancelled workflow that held nothing (a
 * conversation opened and left: every agent session opened and quit leaves one, cancelled as unused) is nobody's work,
 * so it is hidden by default. The list says how many it hid, `--all` shows them, and `--json` counts them in
 * `hidden_empty_cancelled`. The dashboard's list keeps a copy of the rule (the web app does not import Baton's code).
 */
export const hiddenByDefault = (w: { status: string; empty: boolean }): boolean =>
  w.status === 'cancelled' && w.empty;

export interface Hidden<T> {
  /** The rows to show. */
  shown: T[];
  /** How many were hidden. */
  hidden: number;
  /** What `--json` adds: `hidden_empty_cancelled`, when any were hidden. */
  json: { hidden_empty_cancelled?: number };
  /** The line that says how many were hidden and how to see them; null when none were. */
  note: string | null;
}

/** `rows` without the cancelled workflows that held nothing, unless `all` (`--all`, or a filter that names them). */
export function hideEmptyCancelled<T extends { status: string; empty: boolean }>(
  rows: T[],
  command: 'list' | 'sessions',
  all: boolean,
): Hidden<T> {
  const hidden = all ? 0 : rows.filter(hiddenByDefault).length;
  if (!hidden) return { shown: rows, hidden: 0, json: {}, note: null };
  return {
    shown: rows.filter((w) => !hiddenByDefault(w)),
    hidden,
    json: { hidden_empty_cancelled: hidden },
    note: `(${counted(hidden, 'cancelled workflow')} that held nothing ${hidden === 1 ? 'is' : 'are'} not shown: baton ${command} --all)`,
  };
}
