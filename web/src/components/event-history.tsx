import { useState } from 'react';
import { seg, shortHash, type EventHistory as History } from '../api/index.js';
import { useApi } from '../hooks/use-api.js';
import { ErrorNote } from './error-note.js';

const PAGE = 100;

const summary = (e: History['events'][number]) => {
  const d = (e.data ?? {}) as Record<string, unknown>;
  const pick = ['reason', 'summary', 'outcome', 'trigger', 'option', 'agent', 'name'].find(
    (k) => typeof d[k] === 'string' && d[k],
  );
  // a checkpoint by its name, and the commit it keeps
  const cp = d['checkpoint'] as { name?: unknown; commit?: unknown } | undefined;
  if (cp && typeof cp === 'object' && typeof cp.name === 'string')
    return `${cp.name}${typeof cp.commit === 'string' ? ` at ${shortHash(cp.commit)}` : ''}`;
  const nested = ['decision', 'error', 'entry'].find((k) => d[k] && typeof d[k] === 'object');
  if (nested) {
    const r = d[nested] as Record<string, unknown>;
    return String(r['description'] ?? r['error_message'] ?? r['text'] ?? '');
  }
  return pick ? String(d[pick]) : '';
};

/** The workflow's whole event history from the log, newest page first (what the live feed cannot show). */
export function EventHistory({
  workflowId,
  version,
  refresh,
}: {
  workflowId: string;
  version: number;
  refresh: string;
}) {
  const [pages, setPages] = useState(1);
  const after = Math.max(0, version - PAGE * pages);
  const { data, error } = useApi<History>(
    `/workflows/${seg(workflowId)}/events?after=${after}&limit=${PAGE * pages}`,
    refresh,
  );
  const events = [...(data?.events ?? [])].reverse();
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">Event history</h2>
      {error && <ErrorNote error={error} what="the event history" />}
      <ol className="history" data-testid="event-history">
        {events.map((e) => (
          <li key={e.seq} data-type={e.type}>
            <span className="muted small mono">#{e.seq}</span> <code>{e.type}</code>
            {e.task_id ? <span className="tag">{e.task_id}</span> : null}{' '}
            <span className="muted small">
              {new Date(e.at).toLocaleString()} · {e.actor}
            </span>
            {summary(e) && <div className="small history-detail">{summary(e)}</div>}
          </li>
        ))}
      </ol>
      {after > 0 && (
        <button type="button" className="btn btn-small" onClick={() => setPages((p) => p + 1)}>
          Older events
        </button>
      )}
    </section>
  );
}
