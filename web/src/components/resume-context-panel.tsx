import { useEffect, useState } from 'react';
import { seg, type ContextRead } from '../api/index.js';
import { useApi } from '../hooks/use-api.js';
import { ErrorNote } from './error-note.js';
import { useToast } from './toast-provider.js';

/** Copies text: the Clipboard API where allowed, else a selected textarea and execCommand. */
async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    if (!ok) throw new Error('the browser refused to copy');
  }
}

/**
 * The compiled resume context the next session would get now (`GET .../context`), copyable. The server reads first
 * what the workflow's transcripts gained with no agent at work to read it (a killed agent's last turn), as `baton
 * context` does, and says so here; what it read stays said while the page is open, though the next fetch (the events
 * that read wrote) finds nothing more to read.
 */
export function ResumeContextPanel({ workflowId, refresh }: { workflowId: string; refresh: unknown }) {
  const [read, setRead] = useState<string[]>([]);
  useEffect(() => setRead([]), [workflowId]);
  // the answer that read is often superseded: its events refetch the context before it is shown
  const { data, error } = useApi<ContextRead>(`/workflows/${seg(workflowId)}/context`, refresh, (d) => {
    if (d.transcripts_read.length) setRead(d.transcripts_read);
  });
  const toast = useToast();
  const onCopy = () => {
    if (!data) return;
    copy(data.markdown).then(
      () => toast.success('Resume context copied'),
      (e: unknown) => toast.error(`Failed to copy: ${(e as Error).message}`),
    );
  };
  return (
    <section className="card" aria-labelledby="context-title">
      <div className="card-head">
        <h2 id="context-title">Resume context</h2>
        {data && (
          <span className="muted small">
            {data.tokens.toLocaleString()} / {data.budget.toLocaleString()} tokens · hash{' '}
            <code>{data.hash}</code>
            {data.over_budget && <span className="tag tag-warn">over budget</span>}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={onCopy} disabled={!data}>
          Copy
        </button>
      </div>
      {error &&
        (error.code === 'not_found' ? (
          <p className="muted">{error.message}</p>
        ) : (
          <ErrorNote error={error} what="the resume context" />
        ))}
      {read.map((r) => (
        <p key={r} className="muted small" data-testid="context-read">
          Before compiling: {r}
        </p>
      ))}
      {data && (
        <pre className="context" data-testid="resume-context">
          {data.markdown}
        </pre>
      )}
    </section>
  );
}
