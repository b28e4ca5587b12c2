import { useEffect, useState } from 'react';
import { pauseWaitWords } from '../api/index.js';
import { ModalDialog } from './modal-dialog.js';

interface Props {
  open: boolean;
  busy: boolean;
  /** The running tasks the pause will wait for. */
  running: string[];
  /** An agent's turn is under way (its hooks saw no Stop yet): the pause waits for its end too. */
  turnUnderWay: boolean;
  /** An agent's hooks follow the workflow: between its turns, a pause takes effect at once. */
  hooked: boolean;
  onClose: () => void;
  onConfirm: (reason: string | undefined, force: boolean) => void;
}

/** Amelia's PauseReasonDialog: an optional reason, and whether to pause now instead of at the task boundary. */
export function PauseReasonDialog({ open, busy, running, turnUnderWay, hooked, onClose, onConfirm }: Props) {
  const [reason, setReason] = useState('');
  const [force, setForce] = useState(false);
  useEffect(() => {
    if (!open) return;
    setReason('');
    setForce(false);
  }, [open]);
  return (
    <ModalDialog
      open={open}
      title="Pause workflow"
      submitLabel="Pause"
      busy={busy}
      onClose={onClose}
      onSubmit={() => onConfirm(reason.trim() || undefined, force)}
    >
      <p className="muted">
        {turnUnderWay
          ? `The pause waits for ${pauseWaitWords(running, true)}, then a snapshot is taken.`
          : hooked && running.length
            ? `No turn of the agent is under way: the workflow pauses now (${running.join(', ')} left in progress) and a snapshot is taken.`
            : running.length
              ? `The pause waits for the task boundary: ${running.join(', ')} still running.`
              : 'No task is running: the workflow pauses now and a snapshot is taken.'}
      </p>
      <label htmlFor="pause-reason">Reason (optional)</label>
      <textarea
        id="pause-reason"
        name="reason"
        rows={3}
        maxLength={2000}
        placeholder="end of day, waiting for review, ..."
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {running.length > 0 && (
        <label className="check">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Pause now,
          without waiting for the running task
        </label>
      )}
    </ModalDialog>
  );
}
