import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliResult } from './cli.js';
import { tempDir } from './git-repo.js';

type Json = Record<string, any>;

/**
 * `baton hook <Event> --agent codex` with the payload Codex sends: the fields every Codex hook carries (the session,
 * its turn, the folder, the model, the rollout; null for a session without one), then the event's own.
 */
export function codexHook(
  baton: (args: string[], input?: string) => Promise<CliResult>,
  session: { repo: string; id: string; transcript: string | null; turn?: string },
) {
  return (event: string, fields: Json = {}) =>
    baton(
      ['hook', event, '--agent', 'codex'],
      JSON.stringify({
        session_id: session.id,
        turn_id: session.turn ?? 'turn-1',
        cwd: session.repo,
        hook_event_name: event,
        model: 'gpt-5.5',
        transcript_path: session.transcript,
        ...fields,
      }),
    );
}

/**
 * A Codex conversation driven as Codex drives it: its rollout written line by line as Codex writes it, and Baton's
 * hooks run with Codex's payloads (`baton hook <Event> --agent codex`).
 */
export function codexConversation(
  repo: string,
  baton: (args: string[], input?: string) => Promise<CliResult>,
  id: string,
) {
  const path = join(tempDir('baton-transcript-'), `rollout-2026-05-11T11-26-55-${id}.jsonl`);
  const hook = codexHook(baton, { repo, id, transcript: path });
  const line = (type: string, payload: Json) =>
    JSON.stringify({ timestamp: new Date().toISOString(), type, payload });
  const write = (...lines: string[]) => appendFileSync(path, `${lines.join('\n')}\n`);
  // what Codex writes at the start of each turn, before the turn's hooks run
  const turnStarts = () =>
    write(
      line('session_meta', { id, cwd: repo, cli_version: '0.144.2' }),
      line('event_msg', { type: 'task_started', model_context_window: 258400 }),
      line('turn_context', { cwd: repo, model: 'gpt-5.5' }),
    );
  const ask = async (prompt: string) => {
    const r = await hook('UserPromptSubmit', { prompt });
    write(
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: prompt }],
      }),
      line('event_msg', { type: 'user_message', message: prompt }),
    );
    return r;
  };
  const call = (callId: string, name: string, args: Json, output: string) =>
    write(
      line('response_item', {
        type: 'function_call',
        name,
        arguments: JSON.stringify(args),
        call_id: callId,
      }),
      line('response_item', { type: 'function_call_output', call_id: callId, output }),
    );
  const plan = (callId: string, steps: [string, string][]) =>
    call(
      'p' + callId,
      'update_plan',
      { plan: steps.map(([step, status]) => ({ step, status })) },
      'Plan updated',
    );
  const stop = async (text: string) => {
    write(
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }),
    );
    const r = await hook('Stop', { stop_hook_active: false, last_assistant_message: text });
    write(line('event_msg', { type: 'task_complete', last_agent_message: text }));
    return r;
  };
  return {
    path,
    line,
    write,
    hook,
    turnStarts,
    ask,
    call,
    plan,
    stop,
    start: () => write(line('session_meta', { id, cwd: repo })),
  };
}
