import type { UserRequest } from '../schemas/records.js';
import type { WorkflowState } from '../schemas/state.js';
import { staysInForce } from '../requests/request-gist.js';
import { recent } from './bounds.js';

/**
 * The requests that limit what the agent may do ("we don't control that process", "never push to main") or set a rule
 * for the session ("always run the tests before committing", "use pnpm": staysInForce) stay in force after the last
 * RECENT_LIMIT requests move on: those `kept` pushed out of `held` (a request said after the issue, not the issue
 * itself) join `standing_requests`, the newest RECENT_LIMIT of them, oldest first. Nothing when none was pushed out,
 * or when the issue is still among the recent ones (what was pushed out came before it).
 */
export function standingAfter(
  s: Pick<WorkflowState, 'issue' | 'standing_requests'>,
  held: readonly UserRequest[],
  kept: readonly UserRequest[],
): Pick<WorkflowState, 'standing_requests'> {
  const out = held.filter((r) => !kept.includes(r));
  const issue = s.issue?.id;
  if (out.length === 0 || kept.some((r) => r.id === issue)) return {};
  const standing = out
    .filter((r) => r.id !== issue && staysInForce(r.text))
    .reduce<UserRequest[]>((list, r) => recent(list, r), [...(s.standing_requests ?? [])]);
  return standing.length ? { standing_requests: standing } : {};
}
