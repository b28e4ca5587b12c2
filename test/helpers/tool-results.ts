import type { TranscriptEntry } from '../../src/agents/transcript-types.js';

/**
 * Transcript entries as the parsers produce them, for rules tests on outputs of other projects: a Claude Code Bash
 * result (is_error and the exit code it records), a Codex code-mode cell (no exit code: only what it printed), any
 * other tool's result, and the agent's or the user's words. Line numbers count up, across the test files a worker runs.
 */
let line = 0;

const base = (text: string): TranscriptEntry => ({
  line: (line += 1),
  at: null,
  role: 'assistant',
  kind: 'text',
  text,
  truncated: false,
  tool: null,
  sidechain: false,
});

/** Any entry: a role, a kind (text, thinking, tool_call...) and its text, without a tool. */
export const entry = (
  role: TranscriptEntry['role'],
  kind: TranscriptEntry['kind'],
  text: string,
): TranscriptEntry => ({ ...base(text), role, kind });

export const say = (text: string, role: TranscriptEntry['role'] = 'assistant'): TranscriptEntry => ({
  ...base(text),
  role,
});

/** A Bash call and its result: Claude Code heads a failed one's output with "Exit code N" and flags it is_error. */
export function bash(command: string, exit: number, output = '', id = `b${line}`): TranscriptEntry[] {
  const tool = { id, name: 'Bash', input: { command } };
  return [
    { ...base(`Bash: ${command}`), kind: 'tool_call', tool: { ...tool, is_error: null, exit_code: null } },
    {
      ...base(exit === 0 ? output : `Exit code ${exit}\n${output}`),
      role: 'tool',
      kind: 'tool_result',
      tool: { ...tool, is_error: exit !== 0, exit_code: exit },
    },
  ];
}

/** A Codex code-mode cell running the given commands, whose output holds no exit code. */
export function cell(commands: string[], output: string, extra: { running?: boolean } = {}): TranscriptEntry {
  const code = commands.map((c) => `await tools.exec_command({ cmd: ${JSON.stringify(c)} });`).join('\n');
  return {
    ...base(output),
    role: 'tool',
    kind: 'tool_result',
    tool: { id: `c${line}`, name: 'exec', input: code, is_error: null, exit_code: null, ...extra },
  };
}

/** Another tool's result (a sub-agent, an MCP tool, a search): `is_error` as the format records it. */
export function toolResult(name: string, output: string, isError: boolean | null): TranscriptEntry {
  return {
    ...base(output),
    role: 'tool',
    kind: 'tool_result',
    tool: { id: `t${line}`, name, input: {}, is_error: isError, exit_code: null },
  };
}
