/** The options set aside: "instead of X", "rather than X", "chose A over X". */
export function alternativesIn(text: string): string[] | null {
  const end = String.raw`(.{1,120}?)(?=[,;:.!?)]|\s[—–-]\s|\s(?:so|because|since|as|to keep|which|and then|here)\b|$)`;
  const found = [
    ...text.matchAll(new RegExp(String.raw`\b(?:instead of|rather than)\s+` + end, 'gi')),
    ...text.matchAll(
      new RegExp(
        String.raw`\b(?:choos\w*|chose|picked|prefer\w*|going with|go with|opt\w* for)\s.{1,60}?\sover\s+` +
          end,
        'gi',
      ),
    ),
  ].map((m) => (m[1] ?? '').trim());
  return found.length ? found : null;
}
