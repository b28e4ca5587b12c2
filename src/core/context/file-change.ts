/** A file change as the side-effect ledger says it (`edited src/hooks.go`): its change and its path; null otherwise. */
export function fileChangeOf(
  summary: string,
): { change: 'created' | 'edited' | 'deleted'; path: string } | null {
  const m = /^(created|edited|deleted) (.+)$/.exec(summary);
  return m ? { change: m[1] as 'created' | 'edited' | 'deleted', path: (m[2] as string).trim() } : null;
}
