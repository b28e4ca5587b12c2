/** A coloured pill for a workflow, task, session or trigger status. */
export function StatusBadge({ status, title }: { status: string; title?: string }) {
  return (
    <span className={`badge badge-${status.replace(/[^a-z_]/gi, '')}`} title={title} data-status={status}>
      {status.replace(/_/g, ' ')}
    </span>
  );
}
