import { useState } from 'react';
import {
  api,
  ApiError,
  resumedWords,
  seg,
  shortHash,
  teammateOf,
  type CheckpointRestore,
  type RecoveryPlan,
  type ResumeResult,
  type Status,
} from '../api/index.js';
import { ErrorNote } from '../components/error-note.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { RecoveryOptionCard } from '../components/recovery-option-card.js';
import { Spinner } from '../components/spinner.js';
import { StatusBadge } from '../components/status-badge.js';
import { useTheirs } from '../components/theirs-confirm.js';
import { useToast } from '../components/toast-provider.js';
import { useApi } from '../hooks/use-api.js';
import { hrefOf, navigate } from '../hooks/use-hash-route.js';
import { useLiveTick } from '../live/index.js';
import { Words } from '../components/words.js';

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const message = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/**
 * `#/workflows/{id}/recover`: the recovery options side by side, each with what it would change; a checkpoint
 * restore is planned first and done only once confirmed, showing the commits that leave the branch and the backup
 * ref that keeps them. A teammate's checkpoint (whose, as the workflow's status tells it) is restored only in their
 * worktree: its card offers the records alone, as `baton recover --state-only` puts them back.
 */
export function RecoveryPage({ id }: { id: string }) {
  const tick = useLiveTick(id);
  const base = `/workflows/${seg(id)}`;
  const plan = useApi<RecoveryPlan>(`${base}/recovery-options`, tick);
  // whose it is: the owner, and the person the server serves (`you`), as the workflow's page tells a teammate's
  const status = useApi<Status>(`${base}/status`, tick);
  const teammate = status.data ? teammateOf(status.data.workflow, status.data.you) : null;
  const toast = useToast();
  const theirs = useTheirs();
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<CheckpointRestore | null>(null);
  // a fresh start loses every task's progress: it is done only once confirmed, as a restore that moves the branch is
  const [confirmFresh, setConfirmFresh] = useState(false);
  const [stash, setStash] = useState(false);

  const done = (session: number, what: string) => {
    toast.success(`${what}: session ${session} started`);
    navigate(hrefOf.workflow(id));
  };

  const restore = async (checkpoint: string, confirmed: boolean) => {
    setBusy(true);
    try {
      const r = await api.post<CheckpointRestore>(`${base}/restore`, {
        checkpoint,
        stash,
        confirm: confirmed,
      });
      if (r.needs_confirmation) setConfirm(r);
      else if (r.recovered) {
        setConfirm(null);
        done(
          r.recovered.session_number,
          `Restored ${r.checkpoint.name}${r.git?.backup_ref ? ` (old head kept on ${r.git.backup_ref})` : ''}`,
        );
      }
    } catch (e) {
      toast.error(`Failed to restore: ${message(e)}`);
    } finally {
      setBusy(false);
    }
  };

  // a teammate's recovery is asked first, and sent as meant (the server refuses it otherwise), as their resume is
  const meant = async () => !teammate || (await theirs.ask(teammate.owner, 'recover'));

  const recover = async (option: 'live_state' | 'fresh') => {
    if (!(await meant())) return setConfirmFresh(false);
    setBusy(true);
    try {
      const r = await theirs.send('recover', teammate !== null, (yes) =>
        api.post<ResumeResult>(`${base}/recover`, { option, checkpoint: null, theirs: yes }),
      );
      setConfirmFresh(false);
      if (r === null) return;
      done(r.session_number, option === 'fresh' ? 'Started fresh' : 'Resumed from the live state');
    } catch (e) {
      toast.error(`Failed to recover: ${message(e)}`);
    } finally {
      setBusy(false);
    }
  };

  // a teammate's checkpoint: its records alone (task statuses, a new session), no worktree touched
  const recordsOnly = async (checkpoint: string) => {
    if (!(await meant())) return;
    setBusy(true);
    try {
      const r = await theirs.send('recover', teammate !== null, (yes) =>
        api.post<ResumeResult>(`${base}/recover`, { option: 'checkpoint', checkpoint, theirs: yes }),
      );
      if (r === null) return;
      toast.success(`Restored the records of ${checkpoint}: ${resumedWords(r, false, teammate)}`);
      navigate(hrefOf.workflow(id));
    } catch (e) {
      toast.error(`Failed to recover: ${message(e)}`);
    } finally {
      setBusy(false);
    }
  };

  // as the workflow page does: a way back from a workflow that cannot be read (a wrong or removed id)
  if (plan.error && !plan.data)
    return (
      <>
        <ErrorNote error={plan.error} what={`the recovery options of ${id}`} />
        <p>
          <a href={hrefOf.workflows()}>Back to the workflows</a>
        </p>
      </>
    );
  const p = plan.data;
  // the status too: a checkpoint's card is not offered before whose it is is known
  if (!p || (!status.data && !status.error)) return <Spinner label="loading the recovery options" />;
  const resumable = p.recoverable;
  const dirty = p.options.some((o) => (o.changes?.git?.dirty_files.length ?? 0) > 0);
  const g = confirm?.git;
  const fresh = p.options.find((o) => o.type === 'fresh');
  return (
    <div className="recovery" data-testid="recovery">
      <section className="card">
        <p className="muted small">
          <a href={hrefOf.workflows()}>Workflows</a> / <a href={hrefOf.workflow(id)}>{id}</a> / recover
        </p>
        <h1>
          Recover <StatusBadge status={p.status} />
        </h1>
        {p.interrupt_reason && <p className="banner banner-warn">{p.interrupt_reason}</p>}
        <p className="small muted" data-testid="last-known-state">
          Last known state:{' '}
          {p.last_known_state.task ? (
            <>
              task <strong>{p.last_known_state.task}</strong> was in progress
            </>
          ) : (
            'no task was in progress'
          )}
          ; {p.last_known_state.last_event_seq} event{p.last_known_state.last_event_seq === 1 ? '' : 's'}{' '}
          recorded, the last at {new Date(p.last_known_state.last_activity).toLocaleString()}.
        </p>
        {p.refusal && (
          <p className="banner banner-info" data-testid="recovery-refusal">
            Not recoverable now: <Words text={p.refusal.reason} />
            {p.refusal.command ? (
              <>
                : <code>{p.refusal.command}</code>
              </>
            ) : null}
            .
          </p>
        )}
        {dirty && (
          <label className="row small">
            <input type="checkbox" checked={stash} onChange={(e) => setStash(e.target.checked)} /> Stash the
            uncommitted changes before restoring
          </label>
        )}
      </section>
      {p.options.map((o) => (
        <RecoveryOptionCard
          key={o.type}
          option={o}
          workflowId={p.workflow_id}
          teammate={teammate}
          recommended={o.type === p.recommended}
          busy={busy || !resumable}
          onChoose={() =>
            void (o.type === 'fresh'
              ? setConfirmFresh(true)
              : o.type !== 'checkpoint'
                ? recover(o.type)
                : teammate
                  ? recordsOnly(o.target)
                  : restore(o.target, false))
          }
        />
      ))}
      <ModalDialog
        open={confirmFresh}
        title="Start fresh?"
        submitLabel="Start fresh"
        submitClass="btn-danger"
        busy={busy}
        onClose={() => setConfirmFresh(false)}
        onSubmit={() => void recover('fresh')}
      >
        {fresh && (
          <div data-testid="fresh-confirm">
            <p>
              Every task goes back to pending: <strong>{fresh.data_loss}</strong> is lost.
            </p>
            {fresh.changes?.tasks.length ? (
              <ul className="small">
                {fresh.changes.tasks.map((t) => (
                  <li key={t.task_id}>
                    {t.task_id}: {t.from} → {t.to}
                  </li>
                ))}
              </ul>
            ) : null}
            <p className="small muted">
              {upper(fresh.changes?.note ?? 'the worktree and its branch are left as they are')}; the event
              history keeps what was done.
            </p>
          </div>
        )}
      </ModalDialog>
      <ModalDialog
        open={confirm !== null}
        title="Move the branch?"
        submitLabel="Restore and keep the backup"
        busy={busy}
        onClose={() => setConfirm(null)}
        onSubmit={() => confirm && void restore(confirm.checkpoint.name, true)}
      >
        {g && (
          <div data-testid="restore-confirm">
            <p>
              Restoring <strong>{confirm?.checkpoint.name}</strong> moves <code>{g.branch ?? 'HEAD'}</code>{' '}
              from <code>{shortHash(g.branch_head)}</code> to <code>{shortHash(g.commit)}</code>.
            </p>
            {g.commits_dropped > 0 && (
              <>
                <p>
                  {g.commits_dropped === 1
                    ? '1 commit leaves the branch; it stays'
                    : `${g.commits_dropped} commits leave the branch; they stay`}{' '}
                  reachable from <code>{g.backup_ref}</code>:
                </p>
                <ul className="commits">
                  {g.dropped_commits.map((c) => (
                    <li key={c.sha}>
                      <code>{shortHash(c.sha)}</code> {c.subject}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <ol className="small steps">
              {confirm?.steps.map((s) => (
                <li key={s}>
                  <code>{s}</code>
                </li>
              ))}
            </ol>
          </div>
        )}
      </ModalDialog>
    </div>
  );
}
