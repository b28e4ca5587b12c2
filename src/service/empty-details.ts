import type { DetailCategory } from './queries.js';

/**
 * Why a category can hold no records while the workflow has many events, said where its empty list is shown (`baton
 * details`, the MCP tool get_details): history is not the event log but the agent's own steps, read from transcripts.
 */
const emptyBecause: Partial<Record<DetailCategory, string>> = {
  history:
    "history holds the agent's own steps (what it said, the tools and commands it ran), read from its transcript when its turn ends under Baton's hooks, by `baton import`, or from a `baton run` agent; none were read here. What the tools or the CLI recorded is in its own category: requests, decisions, errors, test-state, git-changes, summaries",
};

/** The words after "no <records> (<of what>)" for a category with none: what it holds and where to look instead. */
export const emptyDetailsWords = (category: DetailCategory): string | null => emptyBecause[category] ?? null;
