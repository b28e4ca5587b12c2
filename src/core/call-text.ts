import { unwrapShell } from './split-command.js';

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

/** How a last message begins naming the calls after it that never returned (the transcript ends while they ran). */
export const NEVER_RETURNED = 'The transcript ends before';

/**
 * How a last message says that the user spoke again after it, the agent at work on that without a word yet (the
 * session cut off in that turn): `Then the user said "<their words>"`, then what its calls came to.
 */
export const SPOKE_AFTER = 'Then the user said "';

/** How a last message names the commands its turn left running in the background, never seen to end. */
export const LEFT_RUNNING = 'Left running in the background, not seen to end when the transcript ends:';

/** How a last message names the sub-agents its turn started that had not answered when the transcript ends. */
export const NOT_ANSWERED = 'Sub-agents it started had not answered when the transcript ends:';

/**
 * A command that serves until it is stopped (a dev server, a preview, a log followed): left running, it is no work
 * the agent waits on. Its words stand alone (`npm run dev`, not the `/dev/null` of a redirection).
 */
const serves =
  /(?:^|[\s:])(?:dev|serve|server|preview|start|runserver)(?=$|[\s:])|\bhttp\.server\b|\bcompose\s+up\b|\btail\s+-f\b/;

/**
 * What a last message's turn left to come back to, as its notes name them (LEFT_RUNNING, NOT_ANSWERED): the
 * sub-agents it waits for, and the commands it left running in the background (a CI check waited on, a long test run)
 * but a server. Empty when there is none.
 */
export function awaitedAfter(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith(NOT_ANSWERED)) out.push(`sub-agents ${line.slice(NOT_ANSWERED.length).trim()}`);
    if (line.startsWith(LEFT_RUNNING))
      for (const call of line.slice(LEFT_RUNNING.length).matchAll(/`([^`]+)`/g))
        if (!serves.test(call[1] as string)) out.push(`\`${call[1]}\``);
  }
  return out;
}

/**
 * Every shell command a tool call ran: its input's `command` or `cmd` (a string, the script of a shell launcher
 * taken out of it (`bash -lc '...'`, as Codex's `exec --json` wraps its commands), or an argv whose last word is the
 * script), or the commands of a code-mode cell (Codex's `exec`) unless the transcript has their results apart
 * (`commandsApart`: each is a call of its own).
 */
export function callCommands(name: string | null, input: unknown, commandsApart = false): string[] {
  if (typeof input === 'object' && input !== null) {
    const v = input as Record<string, unknown>;
    const cmd = v.command ?? v.cmd;
    if (typeof cmd === 'string') return [unwrapShell(cmd).trim()];
    if (Array.isArray(cmd) && cmd.every((c) => typeof c === 'string')) return [(cmd.at(-1) as string).trim()];
  }
  if (name === 'exec' && typeof input === 'string' && !commandsApart) return cellCommands(input);
  return [];
}

/** A completed tool call as the readers of its effects see it: a transcript's entry, or a call `baton run` saw end. */
export interface ToolOutcome {
  /** The tool's name (`Bash`, `exec_command`, `apply_patch`, an MCP tool's). */
  tool: string;
  input: unknown;
  /** The shell commands it ran (callCommands). */
  commands: readonly string[];
  /** What it answered. */
  output: string;
  /** Flagged as an error, or a command that exited with a non-zero code. */
  failed: boolean;
}

/**
 * A command on one line, to name it in a message: a line continued (`\\` at its end, a line ending or starting with
 * `&&`, `||`, `|`, or opening a block: `then`, `do`, `else`, `{`, `(`), or one closing a subshell or a substitution
 * (`)"` after the here-document of `git commit -m "$(cat <<'EOF'`), joins with a space, separate lines with `; `.
 */
export function oneLineCommand(command: string): string {
  return command
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .reduce((line, next) => {
      if (line === '') return next;
      if (line.endsWith('\\')) return `${line.slice(0, -1).trimEnd()} ${next}`;
      const continued =
        /(?:&&|\|\||\||\bthen|\bdo|\belse|\{|\()$/.test(line) || /^(?:&&|\|\||\||\))/.test(next);
      return `${line}${continued ? ' ' : '; '}${next}`;
    }, '');
}
