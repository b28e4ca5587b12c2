import { useEffect, useMemo, useRef, useState } from 'react';
import { agentLogLines, api, ApiError, seg, type TaskLog, type TaskLogList } from '../api/index.js';
import { useApi } from '../hooks/use-api.js';
import { ErrorNote } from './error-note.js';

/** Most of a log the panel keeps on screen (the full file stays in the run folder). */
const KEEP = 200_000;

/** How each kind of line starts on screen: what the agent did, told apart at a glance. */
const mark: Record<string, string> = {
  tool: '→ ',
  'tool-result': '  ← ',
  'tool-error': '  ✗ ',
  thinking: '… ',
  user: 'user: ',
  system: '· ',
  stderr: 'stderr: ',
};

/**
 * Each log's tab: its task and session ("T1 · s1"), and which attempt when a task ran more than once in one session
 * ("T1 · s1 · 2nd").
 */
function logLabels(logs: TaskLogList['logs']) {
  const seen = new Map<string, number>();
  const runs = logs.map((l) => {
    const key = `${l.task_id ?? l.name} · s${l.session_number ?? '?'}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return { key, n };
  });
  const ordinal = (n: number) => `${n}${n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;
  return runs.map(({ key, n }) => (n === 1 ? key : `${key} · ${ordinal(n)}`));
}

/**
 * The agent's output, task by task: every log `baton run` keeps in the run folder (`logs/`), the newest selected.
 * While the workflow runs, the selected log is followed (read again from where it ended, once a second). Claude
 * Code's stream-json is shown in words (`agentLogLines`); "Raw" shows the log as it is.
 */
export function AgentOutput({
  workflowId,
  refresh,
  running,
}: {
  workflowId: string;
  refresh: string;
  running: boolean;
}) {
  const base = `/workflows/${seg(workflowId)}/logs`;
  const list = useApi<TaskLogList>(base, refresh);
  const logs = list.data?.logs ?? [];
  const labels = logLabels(logs);
  const [chosen, setChosen] = useState<string | null>(null);
  const name = chosen ?? logs[logs.length - 1]?.name ?? null;
  const [text, setText] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [raw, setRaw] = useState(false);
  const lines = useMemo(() => (raw ? [] : agentLogLines(text)), [raw, text]);
  const offset = useRef(0);
  const pre = useRef<HTMLPreElement>(null);

  useEffect(() => {
    setText('');
    offset.current = 0;
    if (!name) return;
    let live = true;
    const pull = async () => {
      try {
        for (;;) {
          const r = await api.get<TaskLog>(`${base}/${seg(name)}?offset=${offset.current}`);
          if (!live) return;
          offset.current = r.next_offset;
          if (r.text) setText((t) => (t + r.text).slice(-KEEP));
          if (r.next_offset >= r.size) break;
        }
        setError(null);
      } catch (e) {
        if (live) setError(e instanceof ApiError ? e : new ApiError(0, 'internal', String(e)));
      }
    };
    void pull();
    const timer = running ? setInterval(() => void pull(), 1000) : null;
    return () => {
      live = false;
      if (timer) clearInterval(timer);
    };
  }, [base, name, running]);

  useEffect(() => {
    const el = pre.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [text, raw]);

  return (
    <section className="card" aria-labelledby="output-title" data-testid="agent-output">
      <div className="card-head">
        <h2 id="output-title">Agent output</h2>
        {running && name && <span className="tag tag-live">following</span>}
        <span className="spacer" />
        {name && (
          <button
            type="button"
            className={`chip${raw ? ' chip-on' : ''}`}
            aria-pressed={raw}
            onClick={() => setRaw((r) => !r)}
            data-testid="log-raw"
          >
            Raw
          </button>
        )}
      </div>
      {list.error && <ErrorNote error={list.error} what="the task logs" />}
      {list.data && logs.length === 0 && (
        <p className="muted small">
          No task log yet: <code>baton run</code> keeps each task&apos;s agent output here.
        </p>
      )}
      {logs.length > 0 && (
        <div className="log-picker" role="group" aria-label="task logs">
          {logs.map((l, i) => (
            <button
              type="button"
              key={l.name}
              className={`chip${l.name === name ? ' chip-on' : ''}`}
              onClick={() => setChosen(l.name)}
              data-log={l.name}
            >
              {labels[i]}
            </button>
          ))}
        </div>
      )}
      {error && <ErrorNote error={error} what={`the log ${name}`} />}
      {name && (
        <pre
          className="log"
          ref={pre}
          data-testid="agent-log"
          data-log={name}
          data-view={raw ? 'raw' : 'lines'}
        >
          {raw
            ? text || ' '
            : lines.length === 0
              ? ' '
              : lines.map((l, i) => (
                  <span key={i} className={`log-line log-${l.kind}`} data-kind={l.kind}>
                    {mark[l.kind] ?? ''}
                    {l.text}
                  </span>
                ))}
        </pre>
      )}
    </section>
  );
}
