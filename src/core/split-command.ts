/** A command line's parts with the operator after each (`|`, `&&`, `||`, `;`, a newline; '' after the last). */
export function splitCommand(command: string): { text: string; sep: string }[] {
  const parts: { text: string; sep: string }[] = [];
  // where the part being read starts: a part is the text between two operators outside quotes, quotes included
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] as string;
    if (quote) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ';' || c === '\n' || c === '|' || (c === '&' && command[i + 1] === '&')) {
      const double = c === '&' || (c === '|' && command[i + 1] === '|');
      parts.push({ text: command.slice(start, i).trim(), sep: double ? c + c : c });
      if (double) i += 1;
      start = i + 1;
    }
  }
  parts.push({ text: command.slice(start).trim(), sep: '' });
  return parts.filter((p) => p.text !== '');
}

/**
 * The script a shell launcher runs (`bash -lc 'rm a.txt'`, `/bin/zsh -c "..."`, `bash -lc ls`): the command the agent
 * ran, as Codex's `exec --json` reports it, wrapped; the command itself otherwise. In a single-quoted script, `'\''`
 * is a quote.
 */
export function unwrapShell(command: string): string {
  const m = /^\s*(?:\/\S*\/)?(?:ba|z|da|k)?sh\s+(?:-\w*c\w*)\s+(?:(['"])([\s\S]*)\1|([^\s'"]+))\s*$/.exec(
    command,
  );
  if (!m) return command;
  if (m[3] !== undefined) return m[3];
  return m[1] === "'" ? (m[2] ?? '').replace(/'\\''/g, "'") : (m[2] ?? '');
}
