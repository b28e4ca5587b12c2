/**
 * A task log as a person reads it. `baton run` keeps the agent's standard output as it came (Claude Code's
 * `--output-format stream-json`, Codex's `exec --json`: one JSON object a line) and its standard error marked
 * `[stderr] `; this turns each line into what it says: the assistant's text, each tool call on one line (the tool and
 * a short input), tool results shortened, the final result. A line it does not know (another agent's output, a type
 * an agent adds later) is shown as it is, so nothing is hidden.
 */
export type LogLineKind =
  | 'text'
  | 'thinking'
  | 'tool'
  | 'tool-result'
  | 'tool-error'
  | 'user'
  | 'system'
  | 'result'
  | 'result-error'
  | 'stderr'
  | 'raw';

export interface LogLine {
  kind: LogLineKind;
  text: string;
}

/** Characters of a tool's input kept on its line. */
const INPUT_CHARS = 120;
/** Characters of a tool result, of thinking, of a user turn and of the final result kept. */
const RESULT_CHARS = 240;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** One line, at most `max` characters: newlines as `⏎`, the rest cut with how much was left out. */
export function shorten(text: string, max: number): string {
  const flat = text.trim().replace(/\s*\n\s*/g, ' ⏎ ');
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max)}… (+${flat.length - max} chars)`;
}

/** The input that names what a tool call does: its command, file, pattern, address...; else the input as JSON. */
function toolInput(name: string, input: unknown): string {
  if (!isObject(input)) return '';
  if (name === 'TodoWrite' && Array.isArray(input['todos'])) return `${input['todos'].length} todos`;
  for (const key of [
    'command',
    'file_path',
    'notebook_path',
    'pattern',
    'url',
    'query',
    'description',
    'prompt',
  ]) {
    const v = str(input[key]);
    if (v) {
      const path = key === 'pattern' ? str(input['path']) : null;
      return shorten(path ? `${v} in ${path}` : v, INPUT_CHARS);
    }
  }
  return shorten(JSON.stringify(input), INPUT_CHARS);
}

/** A tool result's text: a string, or its text blocks joined (an image is named, not shown). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isObject(b) ? (str(b['text']) ?? (b['type'] === 'image' ? '[image]' : '')) : ''))
    .join('\n');
}

function lineCount(text: string): string {
  const n = text.trimEnd().split('\n').length;
  return n > 1 ? ` (${n} lines)` : '';
}

function seconds(ms: unknown): string | null {
  return typeof ms === 'number' ? `${(ms / 1000).toFixed(1)} s` : null;
}

/** The lines of one message's content blocks (an assistant's turn, a user turn with tool results). */
function contentLines(role: 'assistant' | 'user', content: unknown, raw: string): LogLine[] {
  if (typeof content === 'string')
    return [
      role === 'assistant'
        ? { kind: 'text', text: content }
        : { kind: 'user', text: shorten(content, RESULT_CHARS) },
    ];
  if (!Array.isArray(content)) return [{ kind: 'raw', text: raw }];
  const out: LogLine[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    const type = b['type'];
    const text = str(b['text']);
    if (type === 'text' && text !== null)
      out.push(
        role === 'assistant' ? { kind: 'text', text } : { kind: 'user', text: shorten(text, RESULT_CHARS) },
      );
    else if (type === 'thinking')
      out.push({ kind: 'thinking', text: shorten(str(b['thinking']) ?? '', RESULT_CHARS) });
    else if (type === 'tool_use') {
      const name = str(b['name']) ?? 'tool';
      out.push({ kind: 'tool', text: `${name} ${toolInput(name, b['input'])}`.trim() });
    } else if (type === 'tool_result') {
      const body = resultText(b['content']);
      out.push({
        kind: b['is_error'] === true ? 'tool-error' : 'tool-result',
        text: `${shorten(body, RESULT_CHARS) || '(no output)'}${body.length > RESULT_CHARS ? lineCount(body) : ''}`,
      });
    } else out.push({ kind: 'raw', text: JSON.stringify(b) });
  }
  return out;
}

/** A `system` line: the session's start, else its subtype with the few words that say what happened. */
function systemLine(o: Json): LogLine {
  const subtype = str(o['subtype']) ?? 'system';
  if (subtype === 'init') {
    const model = str(o['model']);
    const cwd = str(o['cwd']);
    return {
      kind: 'system',
      text: `session started${model ? ` · model ${model}` : ''}${cwd ? ` · ${cwd}` : ''}`,
    };
  }
  const words = ['hook_name', 'error', 'description', 'summary', 'text', 'status']
    .map((k) => o[k])
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String);
  const attempt =
    typeof o['attempt'] === 'number' ? ` ${o['attempt']}/${String(o['max_retries'] ?? '?')}` : '';
  return {
    kind: 'system',
    text: shorten(`${subtype}${attempt}${words.length ? `: ${words.join(', ')}` : ''}`, INPUT_CHARS),
  };
}

/** The run's last line: how it ended, its turns, time and cost, and its final words shortened. */
function resultLine(o: Json): LogLine {
  const subtype = str(o['subtype']) ?? 'result';
  const failed = o['is_error'] === true || subtype !== 'success';
  const cost = o['total_cost_usd'] ?? o['cost_usd'];
  const facts = [
    subtype,
    typeof o['num_turns'] === 'number' ? `${o['num_turns']} turns` : null,
    seconds(o['duration_ms']),
    typeof cost === 'number' ? `$${cost.toFixed(2)}` : null,
  ].filter((x): x is string => x !== null);
  const words = str(o['result']);
  return {
    kind: failed ? 'result-error' : 'result',
    text: `Result (${facts.join(', ')})${words ? `: ${shorten(words, RESULT_CHARS)}` : ''}`,
  };
}

/** A Codex item's command: a string, or an argv array joined. */
function commandOf(v: unknown): string {
  if (typeof v === 'string') return v;
  return Array.isArray(v) ? v.filter((w): w is string => typeof w === 'string').join(' ') : '';
}

/** What a Codex item did, on one line: a command run, files changed, a tool or search, the plan. */
function itemCall(item: Json): string | null {
  switch (item['type']) {
    case 'command_execution':
      return `exec ${shorten(commandOf(item['command']), INPUT_CHARS)}`;
    case 'file_change': {
      const changes = Array.isArray(item['changes']) ? item['changes'].filter(isObject) : [];
      const files = changes.map((c) => `${str(c['kind']) ?? 'change'} ${str(c['path']) ?? '?'}`);
      return `apply_patch ${shorten(files.join(', '), INPUT_CHARS)}`.trim();
    }
    case 'mcp_tool_call':
      return `${str(item['server']) ?? 'mcp'}.${str(item['tool']) ?? 'tool'} ${toolInput('', item['arguments'])}`.trim();
    case 'web_search':
      return `web_search ${shorten(str(item['query']) ?? '', INPUT_CHARS)}`.trim();
    case 'todo_list':
      return `plan: ${Array.isArray(item['items']) ? item['items'].length : 0} steps`;
    default:
      return null;
  }
}

/**
 * One event of Codex's `exec --json` in words: a command when it starts and its output when it ends, the agent's
 * messages and reasoning, files changed, how the turn ended (with its tokens). Item updates and a started item that
 * says nothing yet are left out; an item of a kind it does not know is shown as it is.
 */
function codexLine(o: Json, line: string): LogLine[] {
  const type = str(o['type']) ?? '';
  const item = isObject(o['item']) ? o['item'] : null;
  if (type === 'thread.started')
    return [{ kind: 'system', text: `thread ${str(o['thread_id']) ?? ''} started`.trim() }];
  if (type === 'turn.started' || type === 'item.updated') return [];
  if (type === 'turn.completed') {
    const u = isObject(o['usage']) ? o['usage'] : {};
    const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number).toLocaleString('en-US') : '?');
    return [
      {
        kind: 'result',
        text: `Turn completed (${n('input_tokens')} input tokens, ${n('output_tokens')} output)`,
      },
    ];
  }
  const error = isObject(o['error']) ? str(o['error']['message']) : str(o['message']);
  if (type === 'turn.failed')
    return [{ kind: 'result-error', text: `Turn failed: ${shorten(error ?? '', RESULT_CHARS)}` }];
  if (type === 'error') return [{ kind: 'system', text: `error: ${shorten(error ?? '', RESULT_CHARS)}` }];
  if (!item || (type !== 'item.started' && type !== 'item.completed')) return [{ kind: 'raw', text: line }];
  const started = type === 'item.started';
  const text = str(item['text']);
  switch (item['type']) {
    case 'agent_message':
      return started || text === null ? [] : [{ kind: 'text', text }];
    case 'reasoning':
      return started || text === null ? [] : [{ kind: 'thinking', text: shorten(text, RESULT_CHARS) }];
    case 'error':
      return [{ kind: 'system', text: `error: ${shorten(str(item['message']) ?? '', RESULT_CHARS)}` }];
    case 'command_execution': {
      if (started) return [{ kind: 'tool', text: itemCall(item) ?? '' }];
      const body = str(item['aggregated_output']) ?? '';
      const exit = item['exit_code'];
      const failed = (typeof exit === 'number' && exit !== 0) || item['status'] === 'failed';
      return [
        {
          kind: failed ? 'tool-error' : 'tool-result',
          text: `${shorten(body, RESULT_CHARS) || '(no output)'}${body.length > RESULT_CHARS ? lineCount(body) : ''}${failed && typeof exit === 'number' ? ` (exit ${exit})` : ''}`,
        },
      ];
    }
    default: {
      // any other call (a file change, a tool, a search, the plan) said once, when it ends
      const call = itemCall(item);
      if (call === null) return [{ kind: 'raw', text: line }];
      return started ? [] : [{ kind: 'tool', text: call }];
    }
  }
}

/** One line of the log in words: a line of Claude Code's stream as what it says, any other as it is. */
function logLine(line: string): LogLine[] {
  if (line.startsWith('[stderr] ')) return [{ kind: 'stderr', text: line.slice(9) }];
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return [{ kind: 'raw', text: line }];
  }
  if (!isObject(o)) return [{ kind: 'raw', text: line }];
  const message = o['message'];
  switch (o['type']) {
    case 'assistant':
    case 'user':
      return isObject(message)
        ? contentLines(o['type'], message['content'], line)
        : [{ kind: 'raw', text: line }];
    case 'system':
      return [systemLine(o)];
    case 'result':
      return [resultLine(o)];
    default:
      return /^(?:thread|turn|item)\.|^error$/.test(str(o['type']) ?? '')
        ? codexLine(o, line)
        : [{ kind: 'raw', text: line }];
  }
}

/**
 * The log's lines in words. A last line still being written (no newline yet) that looks like the start of a JSON
 * object waits for the rest; any other is shown as it is.
 */
export function agentLogLines(text: string): LogLine[] {
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  if (last && !last.trimStart().startsWith('{')) lines.push(last);
  else if (last) {
    try {
      JSON.parse(last);
      lines.push(last);
    } catch {
      // incomplete: read with the rest of it
    }
  }
  return lines.filter((l) => l.trim() !== '').flatMap(logLine);
}
