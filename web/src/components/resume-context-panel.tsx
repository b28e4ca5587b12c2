import { seg, type ResumeContext } from '../api/index.js';
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

/** The compiled resume context the next session would get now (`GET .../context`), copyable. */
export function ResumeContextPanel({ workflowId, refresh }: { workflowId: string; refresh: unknown }) {
  const { data, error } = useApi<ResumeContext>(`/workflows/${seg(workflowId)}/context`, refresh);
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
      {data && (
        <pre className="context" data-testid="resume-context">
          {data.markdown}
        </pre>
      )}
    </section>
  );
}
