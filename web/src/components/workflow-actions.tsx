import { useState } from 'react';
import { isResumable, isTerminal, theirsQuestion, type Status, type Teammate } from '../api/index.js';
import type { WorkflowCommands } from '../hooks/use-workflow-commands.js';
import { ModalDialog } from './modal-dialog.js';
import { PauseReasonDialog } from './pause-reason-dialog.js';

/**
 * The Pause (with Amelia's reason dialog), Resume and Abandon buttons of a workflow; while a requested pause waits,
 * Withdraw pause (the resume route withdraws it). On a teammate's workflow the Pause and Abandon dialogs say whose it
 * is (they are the confirmation); Resume and Withdraw pause ask first (`useWorkflowCommands`).
 */
export function WorkflowActions({
  status,
  commands: c,
  hooked = false,
  teammate = null,
}: {
  status: Status;
  commands: WorkflowCommands;
  /** An agent's hooks follow the workflow: a Resume starts no agent, its next prompt or session goes on with it. */
  hooked?: boolean;
  /** Another person's workflow on a database a team shares: its Pause and Abandon dialogs say whose it is. */
  teammate?: Teammate | null;
}) {
  const w = status.workflow;
  const [dialog, setDialog] = useState<'pause' | 'abandon' | null>(null);
  const [abandonReason, setAbandonReason] = useState('');
  const running = status.tasks.filter((t) => t.status === 'in_progress').map((t) => t.id);
  // As in Amelia's PauseButton, the dialog closes either way; the toast says how it went.
  const close = () => setDialog(null);

  const canPause = (w.status === 'in_progress' || w.status === 'blocked') && !w.pause_requested;
  const canResume = isResumable(w.status);
  const canWithdraw = (w.status === 'in_progress' || w.status === 'blocked') && w.pause_requested;
  const canAbandon = !isTerminal(w.status);
  return (
    <div className="actions">
      {canPause && (
        <button type="button" className="btn" disabled={c.busy !== null} onClick={() => setDialog('pause')}>
          {c.busy === 'pause' ? 'Pausing...' : 'Pause'}
        </button>
      )}
      {canResume && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={c.busy !== null}
          onClick={() => void c.resume(hooked)}
        >
          {c.busy === 'resume' ? 'Resuming...' : 'Resume'}
        </button>
      )}
      {canWithdraw && (
        <button
          type="button"
          className="btn"
          disabled={c.busy !== null}
          onClick={() => void c.resume(false, true)}
        >
          {c.busy === 'resume' ? 'Withdrawing...' : 'Withdraw pause'}
        </button>
      )}
      {canAbandon && (
        <button
          type="button"
          className="btn btn-danger-ghost"
          disabled={c.busy !== null}
          onClick={() => setDialog('abandon')}
        >
          Abandon
        </button>
      )}
      <PauseReasonDialog
        open={dialog === 'pause'}
        busy={c.busy === 'pause'}
        running={running}
        waits={status.pause_waits_for}
        theirs={teammate && theirsQuestion(teammate.owner, 'pause')}
        onClose={() => setDialog(null)}
        onConfirm={(reason, force) => void c.pause(reason, force).then(close)}
      />
      <ModalDialog
        open={dialog === 'abandon'}
        title="Abandon workflow"
        submitLabel={teammate ? 'Abandon anyway' : 'Abandon'}
        submitClass="btn-danger"
        busy={c.busy === 'abandon'}
        onClose={() => setDialog(null)}
        onSubmit={() => void c.abandon(abandonReason.trim() || undefined).then(close)}
      >
        {teammate && <p data-testid="theirs-confirm">{theirsQuestion(teammate.owner, 'abandon')}</p>}
        <p>
          An abandoned workflow is cancelled and never offered for resume again. Its history stays readable.
        </p>
        <label htmlFor="abandon-reason">Reason (optional)</label>
        <input
          id="abandon-reason"
          value={abandonReason}
          maxLength={2000}
          onChange={(e) => setAbandonReason(e.target.value)}
        />
      </ModalDialog>
    </div>
  );
}
