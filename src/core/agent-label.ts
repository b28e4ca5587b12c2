/** How an agent is named to people: "Claude Code", "Codex", else the name as given (a command or a profile). */
export const agentLabel = (name: string): string =>
  name === 'claude-code' ? 'Claude Code' : name === 'codex' ? 'Codex' : name;

/**
 * An agent named with the Baton session that followed its conversation, when known: "Claude Code, session 3", as the
 * dashboard names sessions (never an internal id). The one naming of a gone agent and of whose usage limit stopped it.
 */
export const agentInSession = (name: string, session: number | null | undefined): string =>
  `${agentLabel(name)}${session ? `, session ${session}` : ''}`;
