import { BatonError } from '../../core/index.js';

/**
 * An executor that cannot reach where a row's agent runs (the Docker engine unreachable from this process) cannot
 * tell whether the agent is alive. It says so with this error rather than answering false: recovery then leaves the
 * row and its workflow as they are (the agent may well still be working) and says why.
 */
export const livenessUnknown = (cause: string, details: Record<string, unknown> = {}) =>
  new BatonError('unavailable', `its agent's liveness cannot be checked from here: ${cause}`, {
    ...details,
    liveness_unknown: true,
  });

export const isLivenessUnknown = (e: unknown): e is BatonError =>
  BatonError.isInstance(e) && e.details.liveness_unknown === true;
