/**
 * A one-line description of a tool call, for readers and for extraction: the tool and its command, file, pattern or
 * address (`Bash: npm test`, `Write: src/a.ts`), never a whole input (a file's contents, a patch).
 */
export function describeCall(name: string | null, input: unknown): string {
  // a free-form input (Codex's apply_patch), or a code-mode cell that holds a patch in a string: the files it names;
  // a code-mode cell (Codex's `exec`) by the commands it runs (`tools.exec_command({cmd: "..."})`); else its first line
  if (typeof input === 'string') {
    const files = [...input.matchAll(/(?:^|\\n)\*\*\* (?:Update|Add|Delete) File: ([^\n"\\]+)/gm)].map((m) =>
      (m[1] ?? '').trim(),
    );
    const more = files.length > 1 ? ` (and ${files.length - 1} more)` : '';
    const patched = files.length ? `${files[0]}${more}` : undefined;
    const commands = cellCommands(input);
    const said = patched ?? (commands.length ? commands.join(' ; ') : input.trim().split('\n')[0]);
    return said ? `${name ?? 'tool'}: ${said}` : (name ?? 'tool');
  }
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const pick = ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt'];
  for (const key of pick) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '') return `${name ?? 'tool'}: ${value}`;
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      return `${name ?? 'tool'}: ${value.join(' ')}`;
    }
  }
  return name ?? 'tool';
}

/** A JSON string's escapes taken off (`\\"` is `"`); the text as it stands when it is not one. */
function unescaped(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

/**
 * The commands a code-mode cell runs: each `tools.exec_command({cmd: "..."})` of its JavaScript, its key quoted or not
 * (`{"cmd": "..."}`), after other keys or before them.
 */
export function cellCommands(code: string): string[] {
  const call = /tools\.exec_command\(\{(?:[^{}"]|"(?:[^"\\]|\\.)*")*?"?\bcmd\b"?\s*:\s*"((?:[^"\\]|\\.)*)"/g;
  return [...code.matchAll(call)].map((m) => unescaped(m[1] ?? '').trim());
}

/** How a last message names the commands its turn left running in the background, never seen to end. */
export const LEFT_RUNNING = 'Left running in the background, not seen to end when the transcript ends:';
