/**
 * A transcript's unread work a command could not read before handing the work over (a killed agent's last turn, say):
 * the briefing lacks it. Said by `baton context`, the dashboard and the MCP tool alike.
 */
export interface NotRead {
  path: string;
  /** Why, in words: the read's failure (the file gone, unreadable, not a transcript), or its size. */
  why: string;
  /** The command that reads it, once what stopped it is fixed. */
  command: string;
}
