/**
 * "1/5, 2 skipped" with a bar, from the server's counts (`taskCounts`): `done` never holds a skipped task; the bar
 * fills with both, the finished tasks (no work left in them), and the words say them apart.
 */
export function ProgressBar({ done, total, skipped = 0 }: { done: number; total: number; skipped?: number }) {
  const pct = total ? Math.round(((done + skipped) / total) * 100) : 0;
  const also = skipped ? `, ${skipped} skipped` : '';
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
