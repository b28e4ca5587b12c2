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
