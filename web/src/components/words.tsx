/**
 * A text the API words for the CLI as well: its `code` spans (commands, paths) shown as code rather than between
 * backticks. An odd number of backticks leaves the text as it is.
 */
export function Words({ text }: { text: string }) {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return <>{text}</>;
  return <>{parts.map((p, i) => (i % 2 ? <code key={i}>{p}</code> : p))}</>;
}
