import { seg, type Snapshot, type Status } from '../api/index.js';
import { useApi } from '../hooks/use-api.js';
import { UsagePanel } from './usage-panel.js';

/**
 * A workflow's usage card. A new session has read no context yet (a resume empties the gauge), while the conversation
 * that goes on may be the one the latest snapshot measured: until the new session reports, the gauge shows that
 * snapshot's reading, saying whose it is, rather than nothing.
 */
export function WorkflowUsage({
  workflowId,
  status: s,
  refresh,
}: {
  workflowId: string;
  status: Status;
  refresh: unknown;
}) {
  const latest = s.snapshots[s.snapshots.length - 1];
  const earlier =
    s.usage.context_utilization === null && latest && latest.session_number < s.workflow.session_count
      ? latest
      : null;
  const snap = useApi<Snapshot>(
    earlier ? `/workflows/${seg(workflowId)}/snapshots/${seg(earlier.id)}` : null,
    refresh,
  );
  const reading = earlier && snap.data?.usage.context_utilization != null ? snap.data.usage : null;
  return (
    <section className="card" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <UsagePanel
        usage={s.usage}
        session={s.session_usage}
        sessions={s.workflow.session_count}
        warnAt={s.capacity_policy?.warn_at}
        lastReading={
          reading && earlier
            ? {
                usage: reading,
                said: `session ${earlier.session_number}'s last reading: session ${s.workflow.session_count} has reported none yet`,
              }
            : undefined
        }
      />
    </section>
  );
}
