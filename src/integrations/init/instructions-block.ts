import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { agentLabel } from '../../core/agent-label.js';
import { BLOCK_BEGIN, BLOCK_END, replaceBlock } from '../../core/baton-block.js';

/**
 * What the agent should know: what Baton records for it, where its context comes from, how to add to it. `cli` is
 * how the agent runs Baton: `baton` in a file committed with the repository, else the command the hooks here run.
 * Codex runs an agent's commands in a sandbox that may write only in the workspace, and every Baton command writes
 * its database in the user's home: the MCP server (which Codex runs outside the sandbox) comes first there.
 */
export function instructionsBlock(agent: 'claude-code' | 'codex', cli = 'baton'): string {
  const commands = [
    `\`${cli} task add ID:Title[:DEP,DEP]\` (or the MCP tool \`add_task\`): a task that must outlive this session.`,
    `\`${cli} status\`, \`${cli} context\`, \`${cli} details <category>\` (decisions, errors, requests...; a snapshot id before it for that snapshot): what Baton holds.`,
  ];
  const mcp =
    'MCP server `baton`: get_resume_context, get_details, next_task, record_decision, record_error, resolve_error.';
  const items =
    agent === 'codex'
      ? [
          `${mcp.replace(': ', ' (Codex runs it outside your sandbox): add_task, ')}`,
          `${commands.join(' ')} These commands write Baton's database in the user's home, which your sandbox does not let a command write: use the MCP tools, or run a command outside the sandbox.`,
        ]
      : [...commands, mcp];
  return [
    BLOCK_BEGIN,
    '## Baton',
    '',
    `Baton follows this ${agentLabel(agent)} session: the user's requests, your own task list, decisions, errors, tests and`,
    'commits are recorded per git worktree, and each new session (after /clear, a compaction or a restart) gets',
    "Baton's resume context. Keep your task list current: it becomes the workflow's task graph.",
    '',
    ...items.map((i) => `- ${i}`),
    BLOCK_END,
  ].join('\n');
}

/** Writes a file whole: a temporary file beside it, renamed over it (never half written). */
export function writeText(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.baton-tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export type BlockChange = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';

/** Puts the block in the file (between its markers, replacing an older one); the rest of the file is untouched. */
export function addBlock(path: string, block: string): BlockChange {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const r = replaceBlock(current, block);
  if (r.text === current) return 'unchanged';
  writeText(path, r.text);
  return r.found ? 'updated' : 'added';
}

/** Takes the block out; the file itself stays (deleted by the caller only when Baton created it and it is empty). */
export function removeBlock(path: string): BlockChange {
  if (!existsSync(path)) return 'absent';
  const current = readFileSync(path, 'utf8');
  const r = replaceBlock(current, null);
  if (!r.found) return 'absent';
  writeText(path, r.text);
  return 'removed';
}

export const hasBlock = (path: string) =>
  existsSync(path) && readFileSync(path, 'utf8').includes(BLOCK_BEGIN);

/** How the block in a file tells the agent to run Baton (the `cli` it was made with), or null without one. */
export function blockCommand(path: string): string | null {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(BLOCK_BEGIN);
  const end = text.indexOf(BLOCK_END, start);
  if (start < 0 || end < 0) return null;
  return /^- `(.+?) task add ID:Title/m.exec(text.slice(start, end))?.[1] ?? null;
}
