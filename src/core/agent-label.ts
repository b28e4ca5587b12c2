/** How an agent is named to people: "Claude Code", "Codex", else the name as given (a command or a profile). */
export const agentLabel = (name: string): string =>
  name === 'claude-code' ? 'Claude Code' : name === 'codex' ? 'Codex' : name;
