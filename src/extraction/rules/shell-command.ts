import type { TranscriptEntry } from '../../agents/transcript-types.js';

const shellTools = new Set(['Bash', 'exec_command', 'shell', 'local_shell', 'write_stdin', 'bash']);

/** The shell command of a tool call/result, or null when the tool is not a shell. */
export function shellCommand(entry: TranscriptEntry): string | null {
  const tool = entry.tool;
  if (!tool) return null;
  const input = tool.input;
  if (typeof input === 'object' && input !== null) {
    const v = input as Record<string, unknown>;
    const cmd = v.command ?? v.cmd;
    if (typeof cmd === 'string') return cmd.trim();
    if (Array.isArray(cmd) && cmd.every((c) => typeof c === 'string')) return (cmd.at(-1) as string).trim();
  }
  return tool.name && shellTools.has(tool.name) ? '' : null;
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

export const testCommand =
  /\b(npm (run )?test|pnpm test|yarn test|vitest|jest|pytest|mix test|go test|cargo test|rspec|phpunit|gradle test|mvn test)\b/;
