import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';

export type DeliveryChannel = 'resume' | 'hook' | 'mcp' | 'cli' | 'runner';

/** Records that a compiled context (by its content hash) was handed to the current session. */
export function deliverContext(
  d: Draft,
  input: { snapshot_id: string; context_hash: string; tokens: number; via: DeliveryChannel },
) {
  d.emit({ type: 'context.delivered', data: input });
}

/** The agent confirms which context it loaded; a hash other than the delivered one shows up as stale. */
export function acknowledgeContext(d: Draft, hash: string, via: Exclude<DeliveryChannel, 'resume'>) {
  if (!/^[0-9a-f]{8,64}$/.test(hash))
    throw invalidInput(`"${hash}" is not a context hash (hex, from the context's header)`);
  d.emit({ type: 'context.acknowledged', data: { context_hash: hash, via } });
  const h = d.state.handoff;
  return { acknowledged: hash, latest: h?.context_hash ?? null, matches: h?.context_hash === hash };
}
