import type { TranscriptEntry } from '../../agents/transcript-types.js';

const shellTools = new Set(['Bash', 'exec_command', 'shell', 'local_shell', 'write_stdin', 'bash', 'exec']);

/** The commands a code-mode cell runs: each `tools.exec_command({cmd: "..."})` of its JavaScript. */
function cellCommands(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/tools\.exec_command\(\{\s*"?cmd"?\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
    try {
      out.push((JSON.parse(`"${m[1] ?? ''}"`) as string).trim());
    } catch {
      out.push((m[1] ?? '').trim());
    }
  }
  return out;
}

/** Every shell command a tool call or result ran (one for a shell tool, several for a code-mode cell). */
export function shellCommands(entry: TranscriptEntry): string[] {
  const tool = entry.tool;
  if (!tool) return [];
  const input = tool.input;
  if (typeof input === 'object' && input !== null) {
    const v = input as Record<string, unknown>;
    const cmd = v.command ?? v.cmd;
    if (typeof cmd === 'string') return [cmd.trim()];
    if (Array.isArray(cmd) && cmd.every((c) => typeof c === 'string')) return [(cmd.at(-1) as string).trim()];
  }
  if (tool.name === 'exec' && typeof input === 'string') return cellCommands(input);
  return [];
}

/** The shell command of a tool call/result (a cell's commands joined by " ; "), or null when it ran none. */
export function shellCommand(entry: TranscriptEntry): string | null {
  const commands = shellCommands(entry);
  if (commands.length > 0) return commands.join(' ; ');
  return entry.tool?.name && shellTools.has(entry.tool.name) && entry.tool.name !== 'exec' ? '' : null;
}

/** A command line's commands: split at &&, ||, ;, | and newlines outside quotes. */
export function commandParts(command: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] as string;
    if (quote) {
      if (c === '\\' && quote === '"') {
        current += c + (command[i + 1] ?? '');
        i += 1;
        continue;
      }
      if (c === quote) quote = null;
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ';' || c === '\n' || c === '|' || (c === '&' && command[i + 1] === '&')) {
      if (c === '&' || (c === '|' && command[i + 1] === '|')) i += 1;
      parts.push(current.trim());
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

/** The tool family used to decide whether a later call is "the same kind of attempt". */
export function toolFamily(entry: TranscriptEntry): string {
  return shellCommand(entry) !== null ? 'shell' : (entry.tool?.name ?? 'tool');
}

/** First program of a command line ("FOO=1 npx vitest run" -> "npx"). */
export function program(command: string): string {
  const words = command
    .replace(/^(\s*\w+=\S*\s+)+/, '')
    .trim()
    .split(/\s+/);
  return words[0] ?? '';
}

const searchPrograms = /^(rg|grep|egrep|fgrep|ag|ack|git grep)\b/;

/** grep-like commands exit 1 when nothing matched: that is an answer, not a failure. */
export function isNoMatch(command: string, exitCode: number | null, output: string): boolean {
  if (exitCode !== 1 || output.trim() !== '') return false;
  const last = command.split('|').at(-1)?.trim() ?? '';
  return searchPrograms.test(command.trim()) || searchPrograms.test(last);
}

/** Commands that run a test suite (the runner itself, or a package script / task named test). */
export const testCommand =
  /(?<![\w./-])(npm (run )?test|npm run test:[\w:-]+|pnpm (run )?test|yarn test|bun (run )?test|vitest|jest|pytest|python3? -m (pytest|unittest)|node --test|deno test|mix test|go test|cargo (test|nextest)|rspec|(?:vendor\/bin\/)?phpunit|php artisan test|rails test|(?:\.\/)?gradlew test|gradle test|mvn (?:-\S+ )*(?:test|verify)|dotnet test|swift test|playwright test|bats|(mise|make|just|task) (run )?test[\w:-]*)\b/;
