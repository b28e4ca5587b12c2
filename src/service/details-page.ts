import { invalidInput } from '../core/index.js';

/**
 * Which records of a category to read (`baton details --limit --before`, the REST query, the MCP tool get_details):
 * the newest `limit` of those before position `before` (1 is the oldest record; default: after the newest). Positions
 * are stable: the log only grows at its end, so the page before a position names the same records later.
 */
export type DetailsPaging = { limit: number; before?: number | undefined };

/** A page of a category's records, oldest first: positions `from` to `to` of `total`; `next_before` reads older ones. */
export type DetailsPage = {
  records: unknown[];
  total: number;
  from: number;
  to: number;
  /** Pass as `before` (with the same limit) for the records older than these; null: none are older. */
  next_before: number | null;
};

export const isDetailsPage = (d: unknown): d is DetailsPage =>
  typeof d === 'object' && d !== null && !Array.isArray(d) && 'records' in d && 'total' in d;

/** The page of `records` (oldest first) that `paging` asks for. */
export function pageOf(records: unknown[], paging: DetailsPaging): DetailsPage {
  if (!Number.isInteger(paging.limit) || paging.limit < 1)
    throw invalidInput(`limit must be a whole number of 1 or more, not ${paging.limit}`);
  if (paging.before !== undefined && (!Number.isInteger(paging.before) || paging.before < 1))
    throw invalidInput(`before must be a record's position (1 is the oldest), not ${paging.before}`);
  const total = records.length;
  const end = Math.min(total, (paging.before ?? total + 1) - 1);
  const start = Math.max(0, end - paging.limit);
  return {
    records: records.slice(start, end),
    total,
    from: start + 1,
    to: end,
    next_before: start > 0 ? start + 1 : null,
  };
}
