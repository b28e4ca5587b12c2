import type { TranscriptEntry } from '../../agents/transcript-types.js';

/** What the user asked, in their words, where they said it. */
export interface UserRequest {
  line: number;
  at: string | null;
  text: string;
}

/** Claude Code's own commands: typing them changes the session, it asks the agent for nothing. */
const builtinCommands = new Set(
  (
    'add-dir agents bashes bug clear compact config context cost doctor exit export feedback help hooks ide init ' +
    'install-github-app login logout mcp memory model output-style permissions plugin pr-comments privacy-settings ' +
    'release-notes resume review rewind security-review status statusline terminal-setup theme todos upgrade usage vim'
  ).split(' '),
);

const interrupted = /^\[Request interrupted by user[^\]]*\]$/;
const notification =
  /^\s*<(task-notification|system-reminder|agent-message|teammate-message|user-prompt-submit-hook)\b/;
/** Messages other agents send into the session (Claude Code writes them as user turns). */
const relayed = /^[^<\n]{0,80}\n?\s*<(teammate-message|agent-message|task-notification)\b/;
const reminders = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
/** Codex's IDE extension wraps the prompt: "# Context from my IDE setup: ... ## My request for Codex:\n<prompt>". */
const codexRequest = /^[\s\S]*?##\s*My request for Codex:\s*\n/;
/** A declined tool call can carry what the user wants instead. */
const declinedWithWords = /the user said:\s*\n([\s\S]+)$/;
const declined = /doesn't want to proceed with this tool use|User rejected tool use/;

const tag = (text: string, name: string) =>
  new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text)?.[1]?.trim() ?? null;

/** A custom slash command's arguments are the user's request; built-in commands and bare commands are not. */
function commandRequest(text: string): string | null {
  const name = tag(text, 'command-name');
  if (!name) return null;
  const command = name.replace(/^\//, '');
  if (builtinCommands.has(command)) return null;
  const args = tag(text, 'command-args');
  return args ? args : null;
}

/**
 * The user's words of a user-role text (a transcript's user turn, a prompt a hook received): reminders stripped, an
 * IDE wrapper unwrapped; null when nothing of the user is left (a task notification, a message another agent sent,
 * an interruption).
 */
export function spoken(text: string): string | null {
  const bare = text.replace(reminders, '').replace(codexRequest, '').trim();
  if (bare === '' || interrupted.test(bare) || notification.test(bare) || relayed.test(bare)) return null;
  return bare;
}

/** A prompt typed as a slash command: `/name` then its arguments (a path such as `/src/app.ts fails` is not one). */
const typedCommand = /^\/([\w:.-]+)(?:\s+([\s\S]*))?$/;

/**
 * The user's request in a prompt as an agent's hook receives it (UserPromptSubmit), read as the transcript import
 * reads the same turn: the user's words only, a built-in slash command asks nothing, a custom one asks its
 * arguments. The hook and a later import then record one request, not two.
 */
export function promptRequest(prompt: string): string | null {
  const text = spoken(prompt);
  if (!text) return null;
  const command = typedCommand.exec(text);
  if (!command) return text;
  if (builtinCommands.has(command[1] ?? '')) return null;
  return command[2]?.trim() || null;
}

const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The user's requests in order: prompts they typed (also the ones queued while the agent worked), the arguments of
 * custom slash commands, and what they said when declining a tool call. Built-in slash commands, local-command
 * output, hook feedback, interruptions and injected context are left out. A queued message that arrives again as a
 * prompt is one request.
 */
export function findRequests(entries: readonly TranscriptEntry[]): UserRequest[] {
  const out: UserRequest[] = [];
  let lastQueued = false;
  const push = (e: TranscriptEntry, text: string | null) => {
    if (!text) return;
    const previous = out.at(-1);
    // the same words typed again later ("approved" at two gates) are two requests
    if (previous && lastQueued && normal(previous.text) === normal(text)) return;
    out.push({ line: e.line, at: e.at, text });
    lastQueued = e.queued === true;
  };
  for (const e of entries) {
    if (e.sidechain) continue;
    if (e.role === 'user' && e.kind === 'text') push(e, spoken(e.text));
    else if (e.kind === 'meta' && e.role !== 'assistant') push(e, commandRequest(e.text));
    else if (e.kind === 'tool_result' && declined.test(e.text.slice(0, 400))) {
      push(e, declinedWithWords.exec(e.text)?.[1]?.trim() ?? null);
    }
  }
  return out;
}
