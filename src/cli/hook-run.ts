import { loadSettings } from '../config/settings.js';
import { handleHookEvent, type HookResult } from '../integrations/hooks/handle-event.js';
import type { TranscriptSeen } from '../integrations/hooks/hook-log.js';
import type { HookAgent, HookEvent, HookPayload } from '../integrations/hooks/hook-payload.js';
import type { Io } from './output.js';
import { Runtime } from './runtime.js';

export interface HookGlobals {
  home?: string;
  database?: string;
  server?: string;
}

/**
 * The part of a hook that needs Baton's store: loaded only when the hook has work (a no-op Stop never gets here).
 * Settings come from the worktree's baton.config.json too; the run folder catch-up and every read stay within the
 * hook's own worktree; the tokenizer is never loaded (the injected context is fitted in characters).
 */
export async function runHookEvent(
  event: HookEvent,
  payload: HookPayload,
  agent: HookAgent,
  worktree: string | null,
  globals: HookGlobals,
  io: Io,
  env: NodeJS.ProcessEnv,
  transcripts: Record<string, TranscriptSeen> = {},
): Promise<HookResult> {
  const settings = loadSettings(
    { home: globals.home, database: globals.database },
    env,
    worktree ?? undefined,
  );
  const rt = new Runtime(io, payload.cwd, env);
  try {
    const client = await rt.openWith(settings, globals.server, {
      ...(worktree ? { worktree } : {}),
      exactTokens: false,
    });
    return await handleHookEvent(event, {
      client,
      agent,
      payload,
      worktree,
      transcripts,
      settings: {
        autoTrack: settings.autoTrack,
        injectMaxChars: settings.injectMaxChars,
        checkpointIntervalMs: settings.checkpointIntervalMs,
      },
    });
  } finally {
    await rt.close();
  }
}
