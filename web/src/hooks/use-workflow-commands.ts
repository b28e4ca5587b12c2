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
} from '../api/index.js';
import { useToast } from '../components/toast-provider.js';

export type CommandName = 'pause' | 'resume' | 'abandon';

export interface WorkflowCommands {
  busy: CommandName | null;
  pause: (reason: string | undefined, force: boolean) => Promise<boolean>;
  /**
   * `hooked`: an agent's hooks follow the workflow (its next prompt or session goes on with it); `teammate`: it is
   * another person's (their agent goes on with it, in their worktree).
   */
  resume: (hooked?: boolean, teammate?: Teammate | null) => Promise<boolean>;
  abandon: (reason: string | undefined) => Promise<boolean>;
}

const message = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/** Pause, resume and abandon one workflow, each ending in a toast (success or failure); true when it worked. */
export function useWorkflowCommands(workflowId: string, onDone: () => void): WorkflowCommands {
  const toast = useToast();
  const [busy, setBusy] = useState<CommandName | null>(null);
  const path = `/workflows/${seg(workflowId)}`;

  const run = useCallback(
    async (name: CommandName, act: () => Promise<string>, fail: string) => {
      setBusy(name);
      try {
        toast.success(await act());
        return true;
      } catch (e) {
        toast.error(`${fail}: ${message(e)}`);
        return false;
      } finally {
        setBusy(null);
        onDone();
      }
    },
    [toast, onDone],
  );

  return {
    busy,
    pause: (reason, force) =>
      run(
        'pause',
        async () => {
          const r = await api.post<PauseResult>(`${path}/pause`, { reason, force });
          if (r.outcome === 'requested')
            return `Pause requested: waiting for ${pauseWaitWords({ tasks: r.waiting_for, turn: r.waiting_for_turn })}`;
          if (r.outcome === 'already_requested')
            return `A pause was already requested${r.pause_request?.reason ? ` ("${r.pause_request.reason}")` : ''}: it stands${r.ignored_reason ? '; the new reason was not recorded' : ''}`;
          if (r.outcome === 'already_paused') return 'The workflow was already paused';
          return 'Workflow paused';
        },
        'Failed to pause workflow',
      ),
    resume: (hooked = false, teammate = null) =>
      run(
        'resume',
        async () => {
          // on a workflow still in progress with a pause requested, the request is withdrawn
          const r = await api.post<ResumeOutcome>(`${path}/resume`);
          if (r.outcome === 'pause_withdrawn')
            return `Pause request withdrawn${r.pause_request.reason ? ` ("${r.pause_request.reason}")` : ''}: the workflow goes on`;
          return `Workflow resumed: ${resumedWords(r, hooked, teammate)}`;
        },
        'Failed to resume workflow',
      ),
    abandon: (reason) =>
      run(
        'abandon',
        async () => {
          await api.post(`${path}/abandon`, { reason });
          return 'Workflow abandoned';
        },
        'Failed to abandon workflow',
      ),
  };
}
