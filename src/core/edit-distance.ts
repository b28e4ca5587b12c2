/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Whether one word is the other mistyped: one slip apart (a letter added, dropped, changed, or two swapped: `biuld`
 * and `build`, `comit` and `commit`), both words of four letters or more. Words that differ only in their digits
 * (`test1`, `test2`) name two things, not one mistyped.
 */
export function mistyped(a: string, b: string): boolean {
  if (a === b || Math.min(a.length, b.length) < 4) return false;
  if (a.replace(/\d/g, '') === b.replace(/\d/g, '')) return false;
  return editDistance(a, b) === 1;
}
