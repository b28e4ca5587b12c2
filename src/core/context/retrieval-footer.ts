import type { SessionSnapshot } from '../schemas/snapshot.js';

/**
 * Who a briefing is handed to, which decides how its footer says where the rest is: the CLI (`baton context`, the
 * dashboard, `baton resume`), the MCP server, and a hook's injection into Claude Code or into Codex.
 */
export type BriefingSurface = 'cli' | 'mcp' | 'hook' | 'codex-hook';

/**
 * The surfaces whose footer a token budget counts (a hook's counts within its characters instead): a context is
 * compiled with room for the longest of them, so its body, and the hash over it, is the same whichever hands it over.
 */
export const budgetedSurfaces = ['cli', 'mcp'] as const satisfies readonly BriefingSurface[];

type Snap = Pick<SessionSnapshot, 'id' | 'workflow_id'>;

/**
 * Where the rest is, in the words of the surface that hands the briefing over: Baton's commands and MCP tools, never
 * server paths (an agent session has no server). The footer is no part of the briefing's hash: an agent acknowledges
 * the same hash whichever surface it read it on. Codex runs the agent's commands in a sandbox that cannot write
 * Baton's database, so every `baton` command fails there: what the MCP server hands over (to any agent) names its
 * tools alone, and what a hook injects into Codex names them first, the CLI after them as the way from outside; the
 * body's hints name `baton details <category>`, whose categories the MCP tool takes as they are.
 */
export function retrievalFooter(snap: Snap, surface: BriefingSurface): string {
  const w = `-w ${snap.workflow_id}`;
  const lines = {
    cli: [`More: \`baton details ${snap.id} <category>\` or the MCP tool \`get_details\`.`],
    // no longer than the CLI's: a budget keeps room for the longer, which would take it from the briefing
    mcp: [`More: the MCP tool get_details with a category and snapshot_id ${snap.id}.`],
    hook: [
      `More when needed: \`baton context ${w}\` prints the whole resume context;`,
      `\`baton details ${snap.id} <decisions|errors|history|requests|summaries|test-state|git-changes> ${w}\` gives every record;`,
      'inside this session, the MCP server `baton` has the tools get_resume_context and get_details.',
    ],
    'codex-hook': [
      `More when needed, from the MCP server \`baton\` (outside your sandbox; workflow_id ${snap.workflow_id}):`,
      'get_resume_context (the whole context); get_details with a category (decisions, errors, history, requests,',
      `summaries, test-state, git-changes: those of \`baton details\`) and snapshot_id ${snap.id}.`,
      `Outside the sandbox: \`baton context ${w}\`, \`baton details ${snap.id} <category> ${w}\`.`,
    ],
  }[surface];
  return ['---', ...lines, ''].join('\n');
}

/**
 * A briefing as `to` hands it over, from the markdown `from` handed over (the CLI's, which a server's answer carries):
 * its footer swapped, the hashed part before it as it is. Markdown that does not end on `from`'s footer is left as is.
 */
export function briefingFor(
  markdown: string,
  snap: Snap,
  to: BriefingSurface,
  from: BriefingSurface = 'cli',
) {
  const footer = retrievalFooter(snap, from);
  return markdown.endsWith(footer) ? markdown.slice(0, -footer.length) + retrievalFooter(snap, to) : markdown;
}
