import type { TranscriptEntry } from './transcript-types.js';

/**
 * The user stopped the agent's turn (Esc, Ctrl-C) before it ended. Claude Code writes it as a user message in these
 * words ("[Request interrupted by user for tool use]" when it stopped at a tool call the user declined); the Codex
 * parser writes a `turn_aborted` event the user caused in the same words, so every reader knows one marker.
 */
export const INTERRUPTED_BY_USER = '[Request interrupted by user]';

/** The marker's text, in either of Claude Code's forms. */
export const interruptionText = /^\[Request interrupted by user[^\]]*\]$/;

/** Whether an entry is the user's interruption of the agent's turn. */
export const isUserInterruption = (e: Pick<TranscriptEntry, 'role' | 'text'>) =>
  e.role === 'user' && interruptionText.test(e.text.trim());
