/** A workflow's owner in a table of the Workflows page (the git identity it was made under), `(you)` after yours. */
export function OwnerCell({ owner, you }: { owner: string | null; you: string | null | undefined }) {
  return (
    <td data-label="Owner" data-testid="owner">
      {owner ?? <span className="muted">-</span>}
      {owner && owner === you && <span className="muted"> (you)</span>}
    </td>
  );
}
