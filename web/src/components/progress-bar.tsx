/**
 * "1/5, 2 skipped" with a bar: `done` counts the finished tasks, the skipped among them (the bar fills with both);
 * the words say the done and the skipped apart.
 */
export function ProgressBar({ done, total, skipped = 0 }: { done: number; total: number; skipped?: number }) {
  const pct = total ? Math.round((done / total) * 100) : 0;
  const also = skipped ? `, ${skipped} skipped` : '';
  return (
    <span className="progress" title={`${done - skipped} of ${total} tasks done${also}`}>
      <span className="progress-track">
        <span className="progress-fill" style={{ width: `${pct}%` }} />
      </span>
      <span className="small">
        {done - skipped}/{total}
        {also}
      </span>
    </span>
  );
}
