import { z } from 'zod';

/** The hook events Baton installs itself for. */
export const hookEvents = ['PreCompact', 'SessionStart', 'Stop', 'SessionEnd'] as const;
export type HookEvent = (typeof hookEvents)[number];

/**
 * What Claude Code writes on a hook's stdin (shapes from real payloads: corpus/hooks). Unknown fields are kept:
 * newer versions add some (permission_mode, effort, model...).
 */
export const HookInput = z
  .object({
    session_id: z.string(),
    transcript_path: z.string().optional(),
    cwd: z.string(),
    hook_event_name: z.string(),
    source: z.enum(['startup', 'resume', 'clear', 'compact']).optional(),
    trigger: z.enum(['auto', 'manual']).optional(),
    custom_instructions: z.string().nullable().optional(),
    reason: z.string().optional(),
    stop_hook_active: z.boolean().optional(),
  })
  .passthrough();
export type HookInput = z.infer<typeof HookInput>;
