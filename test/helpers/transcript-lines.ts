/** Transcript lines as the agents write them, for tests that parse a few calls through the real parsers. */
import type { TranscriptEntry } from '../../src/agents/transcript-types.js';

let entryLine = 0;
/** A tool's result as the parsers record it (the entry, not its line): for tests of what is read from entries. */
export function toolResultEntry(name: string, input: unknown, output: string, exit = 0): TranscriptEntry {
  entryLine += 1;
  return {
    line: entryLine,
    at: null,
    role: 'tool',
    kind: 'tool_result',
    text: output,
    truncated: false,
    tool: { id: `t${entryLine}`, name, input, is_error: exit !== 0, exit_code: exit },
    sidechain: false,
  };
}

/** A Claude Code tool call and its result, as transcript lines. */
export function claudeTool(
  id: string,
  name: string,
  input: unknown,
  result: string,
  isError = false,
): string[] {
  return [
    {
      type: 'assistant',
      message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }],
      },
    },
  ].map((l) => JSON.stringify(l));
}

/** An older Codex `shell` call (argv array) and its JSON-enveloped output, as rollout lines. */
export function codexShell(id: string, command: string[], output: string, exit = 0): string[] {
  return [
    { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command }), call_id: id },
    {
      type: 'function_call_output',
      call_id: id,
      output: JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 0.1 } }),
    },
  ].map((payload) =>
    JSON.stringify({ timestamp: '2025-09-01T10:00:00.000Z', type: 'response_item', payload }),
  );
}
