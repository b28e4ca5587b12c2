/**
 * What a workflow waits for its user to look at, as the server says it (`needs_you`: `baton status`'s words): a pause
 * waiting, a usage limit and when it lifts, an agent gone mid-turn, the open errors. Nothing when nothing does.
 */
export function NeedsYou({ words }: { words: readonly string[] | undefined }) {
  if (!words?.length) return null;
  return (
    <div className="needs-you" data-testid="needs-you">
      <span className="tag tag-warn">needs you</span>
      <ul className="small">
        {words.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </div>
  );
}

/** Those that need their user first, the rest after, each group in the order given (newest first). */
export const needingFirst = <T,>(rows: readonly T[], needs: (r: T) => readonly string[] | undefined): T[] => [
  ...rows.filter((r) => needs(r)?.length),
  ...rows.filter((r) => !needs(r)?.length),
];
