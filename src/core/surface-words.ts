/**
 * What a message tells its reader to pass or do next, phrased for each surface Baton's messages reach: the CLI's
 * words, which messages are written in (the edge most of them reach), and the MCP server's, for an agent that may have
 * no terminal: its arguments and its tools. Only the ways on that both surfaces have are here: one no MCP tool does
 * (`baton list`, `baton create`, `baton run`) is said in the CLI's words everywhere, for the person at the terminal.
 * `{id}` stands for the workflow a message names. One table, so each message is written once and no surface is told
 * to use what it does not have.
 */
const ways = {
  /** How to name the workflow. */
  workflow: { cli: '-w <id>', mcp: 'workflow_id' },
  /** What resumes a paused or interrupted workflow. */
  resume: { cli: '`baton resume`', mcp: 'the MCP tool `resume_workflow`' },
  /** Where a workflow's briefing is got. */
  briefing: { cli: '`baton context` prints it', mcp: 'the MCP tool `get_resume_context` returns it' },
  /** What starts a workflow that has not started. */
  start: { cli: '`baton run` or an agent session starts it', mcp: 'the MCP tool `start_task` starts it' },
  /** Where the snapshots of a workflow are listed. */
  snapshots: {
    cli: 'list them with `baton snapshots`',
    mcp: 'the MCP resources `baton://snapshots/{snapshot_id}` list them',
  },
  /** What adds a task to a workflow's plan. */
  addTask: { cli: '`baton task add`', mcp: 'the MCP tool `add_task`' },
  /** Where one workflow's state is seen. */
  status: { cli: '`baton status -w {id}`', mcp: 'the MCP tool `next_task` with workflow_id {id}' },
} as const;

export type WayOn = keyof typeof ways;
export type Surface = 'cli' | 'mcp';

/** A way on in the CLI's words, for the workflow `id` where it names one: what a message is written with. */
export const cliWord = (way: WayOn, id = '') => ways[way].cli.replace('{id}', id);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each way on as it reads in a message (the workflow's id where it names one), and its MCP words. */
const toMcp = Object.values(ways).map(({ cli, mcp }) => ({
  pattern: new RegExp(escape(cli).replace(escape('{id}'), '([\\w.-]+)'), 'g'),
  mcp: mcp.replace('{id}', '$1'),
}));

/** A message in the words of `surface`: each way on it names in the CLI's words, in that surface's. */
export function inWordsOf(surface: Surface, message: string): string {
  if (surface === 'cli') return message;
  return toMcp.reduce((m, w) => m.replace(w.pattern, w.mcp), message);
}
