import { useCallback, useState } from 'react';
import {
  api,
  ApiError,
  pauseWaitWords,
  resumedWords,
  seg,
  type PauseResult,
  type ResumeOutcome,
  type Teammate,
  type TheirsAct,
} from '../api/index.js';
import { useTheirs } from '../components/theirs-confirm.js';
import { useToast } from '../components/toast-provider.js';

export type CommandName = 'pause' | 'resume' | 'abandon';

export interface WorkflowCommands {
  busy: CommandName | null;
  /** Pause, from the Pause dialog (on a teammate's workflow that dialog is the confirmation: it says whose it is). */
  pause: (reason: string | undefined, force: boolean) => Promise<boolean>;
  /**
   * Resume, or withdraw a requested pause (`withdraw`: the same route); on a teammate's workflow asked first.
   * `hooked`: an agent's hooks follow the workflow (its next prompt or session goes on with it).
   */
  resume: (hooked?: boolean, withdraw?: boolean) => Promise<boolean>;
  /** Abandon, from the Abandon dialog (on a teammate's workflow that dialog says whose it is). */
  abandon: (reason: string | undefined) => Promise<boolean>;
}

const message = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/**
 * Pause, resume and abandon one workflow, each ending in a toast (success or failure); true when it worked.
 * `teammate`: it is another person's (the server refuses these unless meant: each says it is, `theirs`, once the
 * person confirmed; their agent goes on with a resumed one, in their worktree). A command the server still refuses as
 * a teammate's is asked about then (`useTheirs`); a Cancel does nothing and says nothing.
 */
export function useWorkflowCommands(
  workflowId: string,
  onDone: () => void,
  teammate: Teammate | null = null,
): WorkflowCommands {
  const toast = useToast();
  const theirs = useTheirs();
  const [busy, setBusy] = useState<CommandName | null>(null);
  const path = `/workflows/${seg(workflowId)}`;
  const mine = teammate === null;

  const run = useCallback(
    async (name: CommandName, act: TheirsAct, send: (theirs: boolean) => Promise<string>, fail: string) => {
      setBusy(name);
      try {
        const said = await theirs.send(act, !mine, send);
        if (said === null) return false;
        toast.success(said);
        return true;
      } catch (e) {
        toast.error(`${fail}: ${message(e)}`);
        return false;
      } finally {
        setBusy(null);
        onDone();
      }
    },
    [toast, onDone, theirs, mine],
  );

  return {
    busy,
    pause: (reason, force) =>
      run(
        'pause',
        'pause',
        async (t) => {
          const r = await api.post<PauseResult>(`${path}/pause`, { reason, force, theirs: t });
          if (r.outcome === 'requested')
            return `Pause requested: waiting for ${pauseWaitWords({ tasks: r.waiting_for, turn: r.waiting_for_turn })}`;
          if (r.outcome === 'already_requested')
            return `A pause was already requested${r.pause_request?.reason ? ` ("${r.pause_request.reason}")` : ''}: it stands${r.ignored_reason ? '; the new reason was not recorded' : ''}`;
          if (r.outcome === 'already_paused') return 'The workflow was already paused';
          return 'Workflow paused';
        },
        'Failed to pause workflow',
      ),
    resume: async (hooked = false, withdraw = false) => {
      const act = withdraw ? 'withdraw' : 'resume';
      if (teammate && !(await theirs.ask(teammate.owner, act))) return false;
      return run(
        'resume',
        act,
        async (t) => {
          // on a workflow still in progress with a pause requested, the request is withdrawn
          const r = await api.post<ResumeOutcome>(`${path}/resume`, { theirs: t });
          if (r.outcome === 'pause_withdrawn')
            return `Pause request withdrawn${r.pause_request.reason ? ` ("${r.pause_request.reason}")` : ''}: the workflow goes on`;
          return `Workflow resumed: ${resumedWords(r, hooked, teammate)}`;
        },
        'Failed to resume workflow',
      );
    },
    abandon: (reason) =>
      run(
        'abandon',
        'abandon',
        async (t) => {
          await api.post(`${path}/abandon`, { reason, theirs: t });
          return 'Workflow abandoned';
        },
        'Failed to abandon workflow',
      ),
  };
}
