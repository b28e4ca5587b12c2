/** "3/5" with a bar. */
export function ProgressBar({ done, total, skipped = 0 }: { done: number; total: number; skipped?: number }) {
  const pct = total ? Math.round((done / total) * 100) : 0;
  const also = skipped ? ` (${skipped} skipped)` : '';
  return (
    <span className="progress" title={`${done} of ${total} tasks done${also}`}>
      <span className="progress-track">
        <span className="progress-fill" style={{ width: `${pct}%` }} />
      </span>
      <span className="small">
        {done}/{total}
        {also}
      </span>
    </span>
  );
}
