import type { Status } from '../api/index.js';
import { StatusBadge } from './status-badge.js';

/**
 * The task graph as a list in dependency order, by lane: each task with its status, what it waits for, and a
 * "runnable" mark on the tasks whose dependencies are all done (the next task is highlighted), and a "probably done"
 * mark, with the agent's words, on a task in progress its last message says is over, and a "left from an earlier
 * plan" mark on a task no later list took up (as the briefing says them).
 */
export function TaskList({ status }: { status: Status }) {
  const runnable = new Set(status.runnable_tasks.map((t) => t.id));
  const next = status.next_task?.id;
  // a finished workflow's tasks not done are nobody's work now: said left open, not in progress (as `baton status`)
  const left = new Set(status.left_open.map((t) => t.id));
  // in progress, though the agent's last message says it is over: the server says which, with its words
  const probably = new Map(status.probably_done.map((t) => [t.id, t.said]));
  // left from an earlier plan that no later list took up: to check, not to go on with (as `baton status`)
  const leftBehind = new Set(status.left_behind.map((t) => t.id));
  // the server's counts (`taskCounts`): the done and the skipped apart, as the CLI says them
  const skipped = status.counts.tasks['skipped'] ?? 0;
  const lanes = [...new Set(status.tasks.map((t) => t.lane))].sort((a, b) => a - b);
  return (
    <section className="card" aria-labelledby="tasks-title">
      <div className="card-head">
        <h2 id="tasks-title">Tasks</h2>
        <span className="muted small">
          {runnable.size} runnable · {status.counts.tasks['done'] ?? 0}/{status.tasks.length} done
          {skipped > 0 && `, ${skipped} skipped`}
          {(status.counts.tasks['failed'] ?? 0) > 0 && `, ${status.counts.tasks['failed']} failed`}
        </span>
      </div>
      {lanes.map((lane) => (
        <div key={lane}>
          {lanes.length > 1 && <h3 className="lane">Lane {lane}</h3>}
          <ol className="tasks" data-testid="task-list">
            {status.tasks
              .filter((t) => t.lane === lane)
              .map((t) => (
                <li
                  key={t.id}
                  className={`task${t.id === next ? ' task-next' : ''}`}
                  data-task={t.id}
                  data-status={left.has(t.id) ? 'left_open' : t.status}
                >
                  {left.has(t.id) ? (
                    <StatusBadge
                      status="left_open"
                      title={`${t.status.replace(/_/g, ' ')} when the workflow ended`}
                    />
                  ) : (
                    <StatusBadge status={t.status} />
                  )}
                  <span className="task-id">{t.id}</span>
                  <span className="task-title">{t.title}</span>
                  {runnable.has(t.id) && <span className="tag tag-runnable">runnable</span>}
                  {t.id === next && <span className="tag tag-next">next</span>}
                  {t.deps.length > 0 && <span className="muted small">after {t.deps.join(', ')}</span>}
                  {probably.has(t.id) && (
                    <>
                      <span className="tag tag-warn" data-testid="probably-done">
                        probably done
                      </span>
                      <span className="muted small task-note">
                        the agent&apos;s last message says &ldquo;{probably.get(t.id)}&rdquo;: the next
                        session is asked to check it
                      </span>
                    </>
                  )}
                  {leftBehind.has(t.id) && (
                    <>
                      <span className="tag tag-warn" data-testid="left-behind">
                        left from an earlier plan
                      </span>
                      <span className="muted small task-note">
                        no later list took it up: check whether it is still needed
                      </span>
                    </>
                  )}
                  {t.note && <span className="muted small task-note">{t.note}</span>}
                </li>
              ))}
          </ol>
        </div>
      ))}
    </section>
  );
}
