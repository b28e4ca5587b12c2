import type { Outage } from './hook-log.js';

/**
 * What the user is told of an outage of Baton's store (its server or database out of reach of the hooks): the failure
 * whole at its first hook (`hook-entry.ts`), then only a line at a session start, and once a hook reaches it again.
 */

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The line a new conversation gets while an outage said whole at its first hook goes on. */
export const outageReminder = (o: Outage) =>
  `Baton still cannot reach its store (since ${when(o.since)}, as said then): nothing is lost, this session's briefing and work are read once it answers again; \`baton doctor\` says why`;

/** Said by the first hook that reaches the store again: the outage is over, and what was read of the time away. */
export const outageOver = (o: Outage, read: string | null) =>
  `Baton reaches its store again (its hooks here could not since ${when(o.since)})${read ? `: ${read}` : ''}`;

/**
 * The line a new conversation gets while the database stays damaged (the outage's cause now): a damaged file never
 * answers again on its own, so the way back is said again, briefly.
 */
export const damagedReminder = (o: Outage, database: string) =>
  `Baton still cannot open its database (since ${when(o.since)}): ${database} is damaged and does not mend on its own: move it aside (\`mv ${database} ${database}.damaged\`), then \`baton rebuild --from-disk <worktree>\` brings the workflows back from their run folders; this session's work is read once it answers again`;
