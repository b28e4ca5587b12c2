import { z } from 'zod';

/**
 * What the Go Team design keeps when a session dies under Baton: the last known state and what was done since the
 * last checkpoint, so whoever resumes knows what a return to the checkpoint would lose.
 */
export const InterruptRecovery = z.object({
  /** Who noticed: startup recovery, the heartbeat monitor, or a command that found the driver's lease dead. */
  detected_by: z.enum(['startup_recovery', 'heartbeat', 'lease']),
  last_heartbeat: z.string().nullable(),
  last_known_state: z.object({
    status: z.string(),
    task: z.string().nullable(),
    last_event_seq: z.number().int().nonnegative(),
    last_activity: z.string(),
  }),
  last_checkpoint: z.string().nullable(),
  actions_since_checkpoint: z.number().int().nonnegative().nullable(),
});
export type InterruptRecovery = z.infer<typeof InterruptRecovery>;
