import { useEffect, useState } from 'react';
import { pauseWaitWords, type PauseWaits } from '../api/index.js';
import { ModalDialog } from './modal-dialog.js';

interface Props {
  open: boolean;
  busy: boolean;
  /** The tasks in progress (said in progress, not running: on a hand-tracked workflow nothing runs them). */
  running: string[];
  /** What a pause asked now waits for (the server's `pause_waits_for`); null: it takes effect at once. */
  waits: PauseWaits;
  onClose: () => void;
  onConfirm: (reason: string | undefined, force: boolean) => void;
  /** A teammate's workflow: the question whose it is (`theirsQuestion`), asked above the reason; null: yours. */
  theirs?: string | null;
}

/** Amelia's PauseReasonDialog: an optional reason, and whether to pause now instead of at the task boundary. */
export function PauseReasonDialog({ open, busy, running, waits, onClose, onConfirm, theirs = null }: Props) {
  const [reason, setReason] = useState('');
  const [force, setForce] = useState(false);
  // cleared once it closes, not as it opens: a reset at opening could land after the first keystrokes
  useEffect(() => {
    if (open) return;
    setReason('');
    setForce(false);
  }, [open]);
  return (
    <ModalDialog
      open={open}
      title="Pause workflow"
      submitLabel={theirs ? 'Pause anyway' : 'Pause'}
      busy={busy}
      onClose={onClose}
      onSubmit={() => onConfirm(reason.trim() || undefined, force)}
    >
      {theirs && <p data-testid="theirs-confirm">{theirs}</p>}
      <p className="muted">
        {waits?.turn
          ? `The pause waits for ${pauseWaitWords(waits)}, then a snapshot is taken.`
          : waits
            ? `The pause waits for the task boundary: it takes effect once ${waits.tasks.join(', ')} (in progress) ${waits.tasks.length === 1 ? 'is' : 'are'} done.`
            : running.length
              ? `No turn of the agent is under way: the workflow pauses now (${running.join(', ')} left in progress) and a snapshot is taken.`
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
          without waiting for the task in progress
        </label>
      )}
    </ModalDialog>
  );
}
