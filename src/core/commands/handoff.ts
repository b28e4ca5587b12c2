import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';
import { cliWord } from '../surface-words.js';

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
  const latest = d.state.handoff?.context_hash ?? null;
  if (latest === hash) return { acknowledged: hash, latest, matches: true };
  return { acknowledged: hash, latest, matches: false, next: staleAckWords(latest) };
}

/**
 * What to do after acknowledging a hash that is not the context last handed over, in the CLI's words (`inWordsOf`
 * words it for an MCP agent): the context changed since it was read, or none was handed over.
 */
const staleAckWords = (latest: string | null) =>
  `${latest ? `the context changed since it was read (the latest is ${latest})` : 'no context was handed over yet'}: ${cliWord('briefing')}; read it, then acknowledge its hash`;
