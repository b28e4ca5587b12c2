/**
 * A message another agent sent into the session, which Claude Code writes as a user turn: a background task's
 * `<task-notification>`, a teammate's `<agent-message>` or `<teammate-message>`, after at most a short line of its own
 * ("Another Claude session sent a message:"). The user did not type it.
 */
const relayed = /^[^<\n]{0,80}\n?\s*<(?:teammate-message|agent-message|task-notification)\b/;

export const isRelayed = (text: string): boolean => relayed.test(text);
