/**
 * Standard error with the line that names the error first (`Error: boom`, `TypeError: ...`, `panic: ...`), where a
 * stack trace or a location came before it (`[eval]:1`, `at file.js:3`): the first line is what a person reads.
 */
export function errorFirst(stderr: string | null | undefined): string | null {
  if (!stderr?.trim()) return null;
  const lines = stderr.split('\n');
  const i = lines.findIndex((l) =>
    /^\s*(?:[\w.]*(?:Error|Exception)\b[:\s]|panic: |fatal: |error: )/.test(l),
  );
  if (i <= 0) return stderr;
  return [lines[i]?.trim(), ...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
}
