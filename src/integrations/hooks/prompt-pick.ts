import { stat } from 'node:fs/promises';
import { parseTranscript } from '../../agents/parse-transcript.js';
import { agentSaidBefore } from '../../extraction/session/requests.js';
import { readLinesBefore } from '../transcripts/read-new-bytes.js';

/** How far back a prompt hook reads its conversation for the list a pick names: the agent's last turn or so. */
const BACK_BYTES = 512 * 1024;
const BACK_LINES = 200;

export interface SaidBeforePick {
  /** The agent's words before the prompt; null: it said nothing since the turn before; absent: not read. */
  agent_said?: string | null;
  /** Why they could not be read from the conversation (the workflow's last message stands in). */
  note?: string;
}

/**
 * The agent's words before a prompt that names an item of its list ("go with 2"), read from this conversation's own
 * transcript, so two conversations on one workflow never take each other's list.
 */
export async function saidBeforePick(
  path: string | null | undefined,
  prompt: string,
): Promise<SaidBeforePick> {
  if (!path) return {};
  try {
    const { size } = await stat(path);
    const entries = parseTranscript(await readLinesBefore(path, size, BACK_BYTES, BACK_LINES)).entries;
    if (entries.length === 0) return { note: `no transcript line read from the end of ${path}` };
    return { agent_said: agentSaidBefore(entries, prompt) };
  } catch (e) {
    return { note: `the end of ${path} could not be read (${(e as Error).message})` };
  }
}
