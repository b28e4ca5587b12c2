import type { BatonClient, Ref } from '../../client/baton-client.js';
import { BatonError, type WorkflowStatus } from '../../core/index.js';
import { importTranscriptFile } from '../transcripts/import-file.js';
import { HookInput, hookEvents, type HookEvent } from './hook-input.js';

export interface HookOutcome {
  /** JSON for Claude Code on stdout, when the hook has something to say. */
  output: unknown | null;
  /** One line for stderr (shown in Claude Code's verbose mode). */
  note: string;
}

interface StatusView {
  workflow: { id: string; status: WorkflowStatus; version: number };
  checkpoints: { seq: number }[];
}

const quiet = (note: string): HookOutcome => ({ output: null, note });

/**
 * Answers one Claude Code hook. A hook must never break the agent's session, so every failure becomes a note
 * and the caller exits 0.
 */
export async function handleHook(event: string, stdin: string, client: BatonClient): Promise<HookOutcome> {
  if (!(hookEvents as readonly string[]).includes(event))
    return quiet(`baton: no hook handler for ${event} (have ${hookEvents.join(', ')})`);
  let input: HookInput;
  try {
    const parsed = HookInput.safeParse(JSON.parse(stdin));
    if (!parsed.success)
      return quiet(
        `baton: hook input: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    input = parsed.data;
  } catch (e) {
    return quiet(`baton: hook input is not JSON: ${(e as Error).message}`);
  }
  const ref: Ref = { cwd: input.cwd };
  let status: StatusView;
  try {
    status = (await client.status(ref)) as StatusView;
  } catch (e) {
    if (BatonError.isInstance(e) && (e.code === 'not_found' || e.code === 'ambiguous'))
      return quiet(`baton: ${e.message.split('\n')[0]}`);
    throw e;
  }
  const id = { workflowId: status.workflow.id, cwd: input.cwd };
  return run(event as HookEvent, input, status, id, client);
}

/** Brings the transcript's new part into the workflow; a transcript that cannot be read is only noted. */
async function importTranscript(input: HookInput, ref: Ref, client: BatonClient) {
  if (!input.transcript_path) return 'no transcript';
  try {
    const r = await importTranscriptFile(client, ref, input.transcript_path, 'claude-code');
    return `${r.new_entries} new transcript entries, ${r.records.decisions} decisions, ${r.records.errors} errors`;
  } catch (e) {
    return `transcript not imported: ${(e as Error).message}`;
  }
}

async function run(
  event: HookEvent,
  input: HookInput,
  status: StatusView,
  ref: Ref,
  client: BatonClient,
): Promise<HookOutcome> {
  const s = status.workflow.status;
  switch (event) {
    case 'PreCompact': {
      const imported = await importTranscript(input, ref, client);
      const snap = await client.snapshotNow(
        ref,
        'exhaustion',
        `context compaction (${input.trigger ?? 'auto'})`,
      );
      return quiet(`baton: snapshot ${snap.snapshot_id} before compaction (${imported})`);
    }
    case 'SessionStart': {
      if (s === 'paused' || s === 'interrupted') {
        const r = await client.resume(ref);
        await client.acknowledge(ref, r.context_hash, 'hook');
        return inject(r.context, `resumed ${r.workflow_id} as session ${r.session_number}`);
      }
      if (s === 'in_progress' && input.source === 'compact') {
        const c = await client.deliverContext(ref, 'hook');
        await client.acknowledge(ref, c.hash, 'hook');
        return inject(c.markdown, `context of ${c.workflow_id} restored after compaction`);
      }
      return quiet(`baton: workflow ${status.workflow.id} is ${s}; nothing to inject`);
    }
    case 'Stop':
    case 'SessionEnd': {
      if (s === 'completed' || s === 'failed' || s === 'cancelled')
        return quiet(`baton: workflow ${status.workflow.id} is ${s}`);
      const last = status.checkpoints[status.checkpoints.length - 1];
      const workSinceCheckpoint = status.workflow.version > (last?.seq ?? 0);
      const imported = await importTranscript(input, ref, client);
      if (!workSinceCheckpoint) return quiet(`baton: nothing new since the last checkpoint (${imported})`);
      const cp = (await client.checkpoint(ref, event === 'Stop' ? 'stop' : 'session-end')) as {
        checkpoint: { name: string };
      };
      return quiet(`baton: checkpoint ${cp.checkpoint.name} (${imported})`);
    }
  }
}

function inject(context: string, note: string): HookOutcome {
  return {
    output: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } },
    note: `baton: ${note}`,
  };
}
