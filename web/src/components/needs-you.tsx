/**
 * What a workflow waits for its user to look at, as the server says it (`needs_you`: `baton status`'s words): a pause
 * waiting, a usage limit and when it lifts, an agent gone mid-turn, the open errors. Nothing when nothing does. Its
 * user is the person the dashboard serves, unless the workflow is a teammate's (`owner`: theirs to look at).
 */
export function NeedsYou({
  words,
  owner = null,
}: {
  words: readonly string[] | undefined;
  owner?: string | null;
}) {
  if (!words?.length) return null;
  return (
    <div
      className={owner ? 'needs-you needs-owner' : 'needs-you'}
      data-testid={owner ? 'needs-owner' : 'needs-you'}
    >
      <span className={owner ? 'tag' : 'tag tag-warn'}>{owner ? `needs ${owner}` : 'needs you'}</span>
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
