import { useState } from 'react';
import {
  api,
  ApiError,
  resumedWords,
  seg,
  teammateOf,
  type Owners,
  type ResumeResult,
  type SessionsTable,
  type Teammate,
} from '../api/index.js';
import { hrefOf, navigate } from '../hooks/use-hash-route.js';
import { ErrorNote } from './error-note.js';
import { NeedsYou, needingFirst } from './needs-you.js';
import { OwnerCell } from './owner-cell.js';
import { StatusBadge } from './status-badge.js';
import { useTheirs } from './theirs-confirm.js';
import { TimeAgo } from './time-ago.js';
import { useToast } from './toast-provider.js';

/**
 * The Go Team "resumable sessions" panel: paused and interrupted workflows, with step x/y and a resume action, and
 * those an agent's hooks follow whose agent is not at work (quit, or waiting for its user): the agent's next session
 * in the worktree goes on with them, so they have no resume action (the server would refuse one). Those that wait for
 * their user to look at something come first, saying what (`needs_you`). On a database a team shares, each row names
 * its owner (`owners`); a teammate's waits for them, and goes on in their agent's sessions, in their worktree; its
 * Resume asks first whether the person means it (`useTheirs`).
 */
export function ResumableSessions({
  data,
  error,
  owners,
}: {
  data: SessionsTable | null;
  error: ApiError | null;
  owners: Owners;
}) {
  const toast = useToast();
  const meant = useTheirs();
  const [busy, setBusy] = useState<string | null>(null);
  const theirs = (s: { owner: string | null; worktree: string }) => teammateOf(s, owners.you);
  const rows = needingFirst(
    (data?.sessions ?? []).filter((s) => s.resumable),
    (s) => (theirs(s) ? undefined : s.needs_you),
  );

  // a teammate's is asked first (the server refuses it unless meant); one the server still refuses as theirs then
  const resume = async (id: string, teammate: Teammate | null) => {
    if (teammate && !(await meant.ask(teammate.owner, 'resume'))) return;
    setBusy(id);
    try {
      const r = await meant.send('resume', teammate !== null, (t) =>
        api.post<ResumeResult>(`/workflows/${seg(id)}/resume`, { theirs: t }),
      );
      if (r === null) return;
      toast.success(`Resumed: ${resumedWords(r, false, teammate)}`);
      navigate(hrefOf.workflow(id));
    } catch (e) {
      toast.error(`Failed to resume: ${e instanceof ApiError ? e.message : String(e)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card" aria-labelledby="resumable-title">
      <h2 id="resumable-title">Resumable sessions</h2>
      {error && <ErrorNote error={error} what="the sessions" />}
      {data && rows.length === 0 && (
        <p className="muted">Nothing to resume: no paused or interrupted workflow.</p>
      )}
      {rows.length > 0 && (
        <table className="table table-stack" data-testid="resumable-sessions">
          <thead>
            <tr>
              <th>#</th>
              <th>Session</th>
              <th>Topic</th>
              <th>Step</th>
              <th>Status</th>
              <th>Updated</th>
              {owners.shown && <th>Owner</th>}
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((s, i) => (
              <tr key={s.id}>
                <td data-label="#" className="muted">
                  {i + 1}
                </td>
                <td data-label="Session">
                  <a href={hrefOf.workflow(s.id)}>
                    <code>{s.id}</code>
                  </a>
                </td>
                <td data-label="Topic">
                  {s.topic}
                  <NeedsYou words={s.needs_you} owner={theirs(s)?.owner ?? null} />
                </td>
                <td data-label="Step">{s.step}</td>
                <td data-label="Status">
                  <StatusBadge status={s.status} />
                </td>
                <td data-label="Updated">
                  <TimeAgo at={s.updated_at} />
                </td>
                {owners.shown && <OwnerCell owner={s.owner} you={owners.you} />}
                <td data-label="" className="actions">
                  {s.continued_by ? (
                    <span className="muted">
                      {theirs(s) ? `${theirs(s)?.owner}'s: ` : ''}
                      {s.continued_by} goes on with it
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-primary btn-small"
                      disabled={busy !== null}
                      onClick={() => void resume(s.id, theirs(s))}
                    >
                      {busy === s.id ? 'Resuming...' : 'Resume'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
