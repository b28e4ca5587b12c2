/** Reading Codex tool outputs (exit codes stated in text or in a JSON envelope, code-mode cells, MCP results) and the sessions and cells a poll refers to. */

const exitedPattern = /Process exited with code (-?\d+)/;
/** The shell tool's freeform output (`format_exec_output_for_model_freeform`): "Exit code: N\nWall time: ...". */
const freeformExit = /^Exit code: (-?\d+)\nWall time: /;
const runningPattern = /Process running with session ID (\d+)/;

export interface CodexOutput {
  text: string;
  exit_code: number | null;
  /** exec_command left running in a PTY session: later write_stdin polls on this session finish it. */
  running_session: number | null;
  /** A code-mode cell still running: a later `wait` on this cell finishes it. */
  running_cell: string | null;
  /** Codex said the call failed without an exit code: a code-mode cell that ended "Script failed". */
  failed?: boolean;
}

const scriptHeader = /^Script (?:completed|failed|terminated)\s*\n(?:Wall time [^\n]*\n)?(?:Output:\n)?/;
const runningCell = /^Script running with cell ID (\w+)/;

/**
 * Code mode (`exec` cells running JavaScript that calls tools.exec_command ...): the output is a list of text
 * parts, a "Script completed" header then what the cell printed, often each command's result as JSON
 * `{"exit_code": N, "output": "...", "session_id": N}`.
 */
function readCellOutput(parts: { text?: unknown }[]): CodexOutput {
  const texts = parts.map((p) => (typeof p.text === 'string' ? p.text : '')).filter((t) => t !== '');
  const head = texts[0] ?? '';
  const cell = runningCell.exec(head)?.[1] ?? null;
  // the cell's script threw: Codex heads the output "Script failed" and appends "Script error:\n<message>"
  const scriptFailed = /^Script failed\b/.test(head);
  const body: string[] = [];
  let code: number | null = null;
  let session: number | null = null;
  texts.forEach((t, i) => {
    const text = i === 0 ? t.replace(scriptHeader, '').replace(runningCell, '') : t;
    const json = text.trimStart().startsWith('{') ? parseObject(text) : null;
    if (json && typeof json.output === 'string') {
      body.push(json.output);
      if (typeof json.exit_code === 'number') code = code === null || code === 0 ? json.exit_code : code;
      if (typeof json.session_id === 'number' && json.exit_code === undefined) session = json.session_id;
      return;
    }
    if (text.trim() !== '') body.push(text);
  });
  if (code === null) {
    const stated = /"exit_code":\s*(-?\d+)/.exec(texts.join('\n'));
    if (stated?.[1]) code = Number(stated[1]);
  }
  return {
    text: body.join('\n'),
    exit_code: code,
    running_session: session,
    running_cell: cell,
    ...(scriptFailed ? { failed: true } : {}),
  };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * `function_call_output.output` is plain text with a header ("Process exited with code N", 0.1xx) or a JSON string
 * `{"output": "...", "metadata": {"exit_code": N}}` (older versions, apply_patch outputs), or in code mode a list
 * of text parts (see readCellOutput).
 */
export function readCodexOutput(output: unknown): CodexOutput {
  if (Array.isArray(output)) return readCellOutput(output as { text?: unknown }[]);
  const raw = typeof output === 'string' ? output : output === undefined ? '' : JSON.stringify(output);
  if (runningCell.test(raw) || scriptHeader.test(raw)) return readCellOutput([{ text: raw }]);
  const envelope = jsonEnvelope(raw);
  if (envelope)
    return {
      text: envelope.output,
      exit_code: envelope.exit_code,
      running_session: null,
      running_cell: null,
    };
  const freeform = freeformExit.exec(raw);
  const exited = freeform ?? exitedPattern.exec(raw.slice(0, 400));
  const running = runningPattern.exec(raw.slice(0, 400));
  const body = raw.indexOf('\nOutput:\n');
  return {
    text: partsText(body >= 0 ? raw.slice(body + '\nOutput:\n'.length) : raw),
    exit_code: exited?.[1] ? Number(exited[1]) : null,
    running_session: running?.[1] ? Number(running[1]) : null,
    running_cell: null,
  };
}

/**
 * A tool's answer given as content parts (a code-mode `js` call's, an MCP tool's: `[{"type":"text","text":"..."}]`):
 * their texts; any other text as it is.
 */
function partsText(text: string): string {
  if (!text.trimStart().startsWith('[{')) return text;
  try {
    const parts = JSON.parse(text) as unknown;
    if (!Array.isArray(parts) || parts.length === 0) return text;
    const texts = parts.map((p) => {
      const part = p as { type?: unknown; text?: unknown } | null;
      return part?.type === 'text' && typeof part.text === 'string' ? part.text : null;
    });
    return texts.every((t) => t !== null) ? texts.join('\n') : text;
  } catch {
    return text;
  }
}

function jsonEnvelope(raw: string): { output: string; exit_code: number | null } | null {
  if (!raw.startsWith('{')) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const v = value as { output?: unknown; metadata?: { exit_code?: unknown } };
    if (typeof v.output !== 'string') return null;
    const code = v.metadata?.exit_code;
    return { output: v.output, exit_code: typeof code === 'number' ? code : null };
  } catch {
    return null;
  }
}

/** Function-call arguments are a JSON string; keep the string when it does not parse. */
export function readArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? null;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/** The command a Codex exec call ran, as one string. */
export function commandOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null;
  const v = input as Record<string, unknown>;
  const cmd = v.cmd ?? v.command;
  if (typeof cmd === 'string') return cmd;
  if (Array.isArray(cmd) && cmd.every((c) => typeof c === 'string')) {
    // ["bash", "-lc", "real command"] -> the real command
    const last = cmd.at(-1) as string | undefined;
    return cmd.length === 3 && /^-l?c$/.test(cmd[1] as string) && last ? last : cmd.join(' ');
  }
  return null;
}

/** An MCP call's end (`mcp_tool_call_end.result`): `{"Err": "..."}`, or `{"Ok": {..., "isError": true}}`. */
export function mcpFailed(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return false;
  const r = result as { Err?: unknown; Ok?: { isError?: unknown; is_error?: unknown } };
  return r.Err !== undefined || r.Ok?.isError === true || r.Ok?.is_error === true;
}

/** The PTY session a poll reads: write_stdin's session_id, or tools.write_stdin({session_id: N}) in a code cell. */
export function sessionOf(name: string | null, input: unknown): number | null {
  if (name === 'write_stdin') {
    const id =
      typeof input === 'object' && input !== null ? (input as { session_id?: unknown }).session_id : null;
    return typeof id === 'number' ? id : null;
  }
  if (name === 'exec' && typeof input === 'string') {
    const m = /tools\.write_stdin\(\{\s*"?session_id"?\s*:\s*(\d+)/.exec(input);
    return m?.[1] ? Number(m[1]) : null;
  }
  return null;
}

export function cellOf(input: unknown): string | null {
  const id = typeof input === 'object' && input !== null ? (input as { cell_id?: unknown }).cell_id : null;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/**
 * Codex's collaboration tools answer a call they carried out with JSON (`{"task_name": ...}`, `{"message": "Wait
 * completed.", ...}`) or nothing, and a call they refused with the handler's plain message ("collab spawn failed:
 * agent thread limit reached", "timeout_ms must be at least 10000"): the output has no other failure flag.
 */
/**
 * A call of a collaboration tool: in the `collaboration` namespace, or one of the multi-agent tools older versions
 * offered without a namespace (spawn_agent, send_input, resume_agent, wait, close_agent; a `wait` on a code-mode
 * cell is not one).
 */
export function collabCall(namespace: string | undefined, name: string | null, input: unknown): boolean {
  if (namespace === 'collaboration') return true;
  if (namespace !== undefined || name === null) return false;
  if (name === 'wait') return cellOf(input) === null;
  return ['spawn_agent', 'send_input', 'resume_agent', 'close_agent'].includes(name);
}

export function collabRefused(output: string): boolean {
  const text = output.trim();
  return text !== '' && !text.startsWith('{') && !text.startsWith('[');
}

/** A poll that writes Ctrl-C (`chars: "\u0003"`) to a session: the agent stops its own command. */
export function sendsInterrupt(input: unknown): boolean {
  const text = typeof input === 'string' ? input : JSON.stringify(input ?? null);
  return text.includes('\\u0003') || text.includes(String.fromCharCode(3));
}

/** A command a code-mode cell ran, as Codex records it beside the cell (0.154 on: an `item_completed` event). */
export interface CommandRun {
  id: string;
  command: string;
  exit_code: number | null;
  failed: boolean;
  text: string;
}

/**
 * The CommandExecution item of an `item_completed` event: the script (`["/bin/bash", "-lc", "<script>"]` gives the
 * script), its exit code and status, and what it printed. The cell itself shows only what its JavaScript printed
 * (a result kept with `store(...)` is never shown), so this is how each command went. Null for any other item.
 */
export function commandRun(item: unknown): CommandRun | null {
  if (typeof item !== 'object' || item === null) return null;
  const v = item as Record<string, unknown>;
  if (v.type !== 'CommandExecution' || typeof v.id !== 'string') return null;
  const argv = Array.isArray(v.command)
    ? v.command.filter((c): c is string => typeof c === 'string')
    : typeof v.command === 'string'
      ? [v.command]
      : [];
  const shellC = argv.length >= 3 && /^-\w*c$/.test(argv[argv.length - 2] ?? '');
  const command = (shellC ? (argv.at(-1) ?? '') : argv.join(' ')).trim();
  if (command === '') return null;
  const printed = [v.aggregated_output, v.formatted_output].find((t) => typeof t === 'string');
  const text =
    typeof printed === 'string'
      ? printed
      : [v.stdout, v.stderr].filter((t): t is string => typeof t === 'string' && t !== '').join('\n');
  const code = typeof v.exit_code === 'number' ? v.exit_code : null;
  return { id: v.id, command, exit_code: code, failed: v.status === 'failed' || (code ?? 0) !== 0, text };
}

/**
 * The files a FileChange item says a patch changed (`changes: {path: {type: add|update|delete, move_path}}`), as
 * `{path, kind}` pairs (a move is the old path deleted and the new one added); null for any other item or a change
 * that did not complete (the cell's own output reports a patch that failed).
 */
export function fileChanges(item: unknown): { id: string; changes: { path: string; kind: string }[] } | null {
  if (typeof item !== 'object' || item === null) return null;
  const v = item as Record<string, unknown>;
  if (v.type !== 'FileChange' || typeof v.id !== 'string' || v.status !== 'completed') return null;
  if (typeof v.changes !== 'object' || v.changes === null) return null;
  const changes = Object.entries(v.changes as Record<string, unknown>).flatMap(([path, c]) => {
    const { type, move_path: moved } = (typeof c === 'object' && c !== null ? c : {}) as Record<
      string,
      unknown
    >;
    if (typeof type !== 'string') return [];
    return typeof moved === 'string' && moved !== ''
      ? [
          { path, kind: 'delete' },
          { path: moved, kind: 'add' },
        ]
      : [{ path, kind: type }];
  });
  return changes.length ? { id: v.id, changes } : null;
}
