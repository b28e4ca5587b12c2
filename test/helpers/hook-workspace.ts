import { runCli } from './cli.js';
import { makeRepo, tempDir } from './git-repo.js';

/**
 * A git repository with a Baton home and a HOME of its own (never the user's), where `baton` runs as a child process
 * as the agents' hooks run it: `baton(args, stdin, more env)`.
 */
export function hookWorkspace(env: Record<string, string | undefined> = {}) {
  const repo = makeRepo();
  const e = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-'), ...env };
  const baton = (args: string[], input?: string, more: Record<string, string> = {}) =>
    runCli(args, { cwd: repo, env: { ...e, ...more }, ...(input !== undefined ? { input } : {}) });
  return { repo, env: e, baton };
}

export type Baton = ReturnType<typeof hookWorkspace>['baton'];

/**
 * `baton hook <event>` as an agent runs it: the payload holds `fixed` (the folder, the session and its transcript)
 * and the event's name and own fields.
 */
export const agentHooks =
  (baton: Baton, fixed: Record<string, unknown>) =>
  (event: string, fields: Record<string, unknown> = {}) =>
    baton(['hook', event], JSON.stringify({ ...fixed, hook_event_name: event, ...fields }));

/**
 * Session S1's hooks in a workspace (`hook(event, fields)`), and its TodoWrite of steps ("Step 1", ...) with these
 * statuses (`todo(tool_use_id, ...statuses)`): a Claude Code conversation whose agent keeps its own task list.
 */
export function stepsSession(ws: { repo: string; baton: Baton }) {
  const hook = agentHooks(ws.baton, { session_id: 'S1', cwd: ws.repo });
  const todo = (id: string, ...statuses: string[]) =>
    hook('PostToolUse', {
      tool_name: 'TodoWrite',
      tool_use_id: id,
      tool_input: {
        todos: statuses.map((st, i) => ({ content: `Step ${i + 1}`, status: st, activeForm: 'x' })),
      },
      tool_response: {},
    });
  return { hook, todo };
}
