import { loadSettings } from '../config/settings.js';
import { BatonError } from '../core/errors.js';
import { isPostgresUrl, POSTGRES_HUNG_HINT, redactUrl } from '../core/database-url.js';
import { agentActor } from '../core/actors.js';
import { handleHookEvent, type HookResult } from '../integrations/hooks/handle-event.js';
import type { Outage, TranscriptSeen } from '../integrations/hooks/hook-log.js';
import type { HookAgent, HookEvent, HookPayload } from '../integrations/hooks/hook-payload.js';
import type { Io } from './output.js';
import { Runtime } from './runtime.js';
import { HttpClient, HUNG_HINT } from '../client/http-client.js';
import { batonCommand, commandLine } from '../integrations/init/hook-command.js';
import { runsDirFor } from '../disk/run-paths.js';
import { runsStoreLacks, unfinishedRuns } from '../disk/registry.js';

/** How long a hook waits for the health check of a server (or a database) that went unanswered moments ago. */
const HEALTH_CHECK_MS = 1500;

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
  missedBriefing: string | null = null,
  unansweredSince: string | null = null,
  outage: Outage | null = null,
  waitUntil: number | null = null,
): Promise<HookResult> {
  // what a hook records is the agent session's: its actor is the agent (unless BATON_ACTOR or the config names one)
  const settings = loadSettings(
    { home: globals.home, database: globals.database },
    env,
    worktree ?? undefined,
    {
      actor: agentActor(agent),
    },
  );
  const rt = new Runtime(io, payload.cwd, env);
  /** A server (or database) a hook here found silent moments ago, silent again: not waited for, said so. */
  const notWaitedFor = (what: string, since: string, hint: string) =>
    new BatonError(
      'unavailable',
      `${what} did not answer within ${HEALTH_CHECK_MS / 1000} s, nor did it answer a hook here at ${since.slice(11, 19)} UTC: this hook did not wait for it (the session's transcript is read once it answers again); ${hint}`,
      { unanswered: true },
    );
  try {
    const client = await rt
      .openWith(settings, globals.server, {
        ...(worktree ? { worktree } : {}),
        exactTokens: false,
        // a hook here went unanswered moments ago: a database that does not answer its first connection soon is
        // not waited for either
        ...(unansweredSince ? { storeAnswerWithinMs: HEALTH_CHECK_MS } : {}),
        // a write waits for another process's lock only while the hook's budget lasts (its answer then says why)
        ...(waitUntil === null ? {} : { storeWaitUntil: waitUntil }),
      })
      .catch((e: unknown) => {
        const silent = BatonError.isInstance(e) && e.details?.unanswered === true;
        throw unansweredSince && silent && isPostgresUrl(settings.database)
          ? notWaitedFor(`PostgreSQL at ${redactUrl(settings.database)}`, unansweredSince, POSTGRES_HUNG_HINT)
          : e;
      });
    // a hook here went unanswered moments ago: a server that does not answer its health check is not waited for
    if (
      unansweredSince &&
      client instanceof HttpClient &&
      (await client.health(HEALTH_CHECK_MS)) === 'silent'
    )
      throw notWaitedFor(`the Baton server at ${client.base}`, unansweredSince, HUNG_HINT);
    const ctx = {
      client,
      agent,
      payload,
      worktree,
      transcripts,
      missedBriefing,
      outage,
      home: settings.home,
      cli: () => commandLine(batonCommand(process.env), []),
      settings: {
        autoTrack: settings.autoTrack,
        injectMaxChars: settings.injectMaxChars,
        checkpointIntervalMs: settings.checkpointIntervalMs,
      },
      runsLost: async (at: string) => {
        const runsDir = runsDirFor(at, settings.runsDir);
        const listed = unfinishedRuns(runsDir);
        const held = listed.length ? await client.list({ worktree: at }) : [];
        const lost = listed.filter((r) => !held.some((w) => w.id === r.id));
        return lost.length ? runsStoreLacks(lost, runsDir, at, "Baton's store") : null;
      },
    };
    // Hooks of one worktree run at once (Stop and SessionEnd, two terminals, hooks wired twice): one that finds the
    // workflow changed under it answers again from the new state (what the other did is then not done twice).
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await handleHookEvent(event, ctx);
        return attempt === 1 ? r : { ...r, note: `${r.note} (answered again after a concurrent hook)` };
      } catch (e) {
        if (attempt >= 3 || !BatonError.isInstance(e) || e.code !== 'conflict') throw e;
      }
    }
  } finally {
    await rt.close();
  }
}
