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

/** A command line's parts with the operator after each (`|`, `&&`, `||`, `;`, a newline; '' after the last). */
export function splitCommand(command: string): { text: string; sep: string }[] {
  const parts: { text: string; sep: string }[] = [];
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
      const double = c === '&' || (c === '|' && command[i + 1] === '|');
      parts.push({ text: current.trim(), sep: double ? c + c : c });
      if (double) i += 1;
      current = '';
    } else {
      current += c;
    }
  }
  parts.push({ text: current.trim(), sep: '' });
  return parts.filter((p) => p.text !== '');
}

/** A command line's commands: split at &&, ||, ;, | and newlines outside quotes. */
export function commandParts(command: string): string[] {
  return splitCommand(command).map((p) => p.text);
}

/** The tool family used to decide whether a later call is "the same kind of attempt". */
export function toolFamily(entry: TranscriptEntry): string {
  return shellCommand(entry) !== null ? 'shell' : (entry.tool?.name ?? 'tool');
}

/** A part that only sets shell variables (`X=$(go env GOMODCACHE)`): it runs no program of its own. */
export const assignmentOnly = /^(?:\w+=(?:"[^"]*"|'[^']*'|\$\([^)]*\)|\S)*\s*)+$/;

/**
 * First program of a command line ("FOO=1 npx vitest run" -> "npx"; "X=$(go env GOPATH) && grep ..." -> "grep"),
 * looking inside `bash -c '...'`.
 */
export function program(command: string): string {
  const first = commandParts(unwrapShell(command)).find((p) => !assignmentOnly.test(p)) ?? command;
  const words = first
    .replace(/^(\s*\w+=(?:"[^"]*"|'[^']*'|\$\([^)]*\)|\S)*\s+)+/, '')
    .trim()
    .split(/\s+/);
  return words[0] ?? '';
}

/** The script of `bash -c '...'` / `sh -c "..."` (the command itself otherwise). */
export function unwrapShell(command: string): string {
  const m = /^\s*(?:\/\S*\/)?(?:ba|z|da|k)?sh\s+(?:-\w*c\w*)\s+(['"])([\s\S]*)\1\s*$/.exec(command);
  return m?.[2] ?? command;
}

const keyword = /^(?:then|else|elif|do|!)\s+/;
const noStep =
  /^(?:fi|done|esac|true|false|:|exit\b.*|(?:echo|printf|cd|export|set|source|\.)\b.*|if \[.*|\[\[?.*)$/;
/** Programs that only shape the output of the step before them (`... | tail -20`). */
const outputFilter = /^(?:head|tail|sort|uniq|wc|cut|tee|less|more|jq|column|tr|cat)\b/;

/** The words that name what a command part does: program and subcommands, without flags, redirects or `--` args. */
function stepWords(part: string): string[] {
  const words = part
    .replace(keyword, '')
    .replace(/^(\s*\w+=(?:"[^"]*"|'[^']*'|\$\([^)]*\)|\S)*\s+)+/, '')
    .trim()
    .split(/\s+/);
  const end = words.indexOf('--');
  return (end >= 0 ? words.slice(0, end) : words).filter(
    (w) => w !== '' && !w.startsWith('-') && !/^(?:\d*[<>]|&>)/.test(w),
  );
}

/** Whether a command line runs its parts one after another whatever happens (`;`, newlines, `||`). */
export function sequential(command: string): boolean {
  return splitCommand(command).some((p) => p.sep === ';' || p.sep === '\n' || p.sep === '||');
}

/** Steps that only look (search, list, print): running another look is exploring, not retrying. */
const lookingStep =
  /^(?:grep|egrep|rg|ag|find|fd|ls|cat|sed|awk|head|tail|stat|file|wc|tree|which|type|echo|printf)$/;

/** Every step of a command line (`git push`, `cargo run hk`, `mise run lint`), the last one last. */
export function commandSteps(command: string): string[][] {
  const parts = commandParts(unwrapShell(command))
    .map((p) => p.replace(keyword, '').trim())
    .filter((p) => p !== '' && !noStep.test(p) && !assignmentOnly.test(p));
  while (parts.length > 1 && outputFilter.test(parts.at(-1) ?? '')) parts.pop();
  return parts.map(stepWords).filter((w) => w.length > 0);
}

/**
 * A later command runs the failed command's step again (the same program, subcommand and arguments, other flags
 * allowed: `git push` then `git push --set-upstream origin x`; `mise run fmt && mise run lint` then `mise run
 * lint`): the step an `&&` chain stopped at is its last one. Not for lists whose every part runs (`a; b`), nor
 * for a step that only looks (grep, find, ls...).
 */
export function sameStep(failedCommand: string, later: string): boolean {
  // in `a; b` or `a || b` every part runs: the last one is not where the failure stopped
  if (sequential(unwrapShell(failedCommand).trim())) return false;
  const step = commandSteps(failedCommand).at(-1);
  if (!step || lookingStep.test(step[0] ?? '')) return false;
  return commandSteps(later).some((other) => {
    const n = Math.min(step.length, other.length);
    return (
      n > 0 && step.slice(0, n).join(' ') === other.slice(0, n).join(' ') && (n > 1 || step.length === 1)
    );
  });
}

/** Commands that run a test suite (the runner itself, or a package script / task named test). */
export const testCommand =
  /(?<![\w./-])(npm (run )?test|npm run test:[\w:-]+|pnpm (run )?test|yarn test|bun (run )?test|vitest|jest|pytest|python3? -m (pytest|unittest)|node --test|deno test|mix test|go test|cargo (test|nextest)|rspec|(?:vendor\/bin\/)?phpunit|php artisan test|rails test|(?:\.\/)?gradlew test|gradle test|mvn (?:-\S+ )*(?:test|verify)|dotnet test|swift test|playwright test|bats|(mise|make|just|task) (run )?test[\w:-]*)\b/;
