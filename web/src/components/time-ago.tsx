/** "3 min ago", with the exact time on hover. */
export function TimeAgo({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">-</span>;
  const t = Date.parse(at);
  if (Number.isNaN(t)) return <span>{at}</span>;
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  const text =
    s < 45
      ? 'just now'
      : s < 3600
        ? `${Math.round(s / 60)} min ago`
        : s < 86_400
          ? `${Math.round(s / 3600)} h ago`
          : `${Math.round(s / 86_400)} d ago`;
  return (
    <time dateTime={at} title={new Date(t).toLocaleString()}>
      {text}
    </time>
  );
}
