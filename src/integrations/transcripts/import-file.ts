import { existsSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, relative } from 'node:path';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import { cwdOf, type TranscriptFormat } from '../../agents/index.js';
import { BatonError, nested, noTaskSync, notLinkedPhrase } from '../../core/index.js';
import type { Extractor, OpenError } from '../../extraction/index.js';
import { readLinesBefore, readNewBytes } from './read-new-bytes.js';
import {
  checkFormat,
  checkSource,
  importTranscript,
  knownOf,
  type Known,
  type KnownView,
  type TranscriptSource,
} from './transcript-import.js';
import type { RecordInput } from '../../service/index.js';
import { agentLabel } from '../../core/agent-label.js';

interface StatusView extends KnownView {
  workflow: {
    id: string;
    worktree?: string | null;
    created_at?: string;
    earlier?: { abandoned_at?: string };
  };
  counts?: { open_errors?: number };
}

/**
 * How much of what an earlier import read the next one reads again, for context only: the end of the turn before
 * (the reply a correction answers). Every line read again is extracted again on each Stop, so it stays short.
 */
const LOOK_BACK_LINES = 30;
const LOOK_BACK_BYTES = 512 * 1024;

const specific = new Set<string>([
  'claude-code-transcript',
  'claude-code-stream-json',
  'codex-rollout',
  'codex-exec-json',
]);

/**
 * The workflow an import goes into: the one named, else the worktree's incomplete one; with `create`, a worktree
 * that has none gets a new workflow for this transcript (its first request becomes the issue), rather than a refusal.
 */
async function targetOf(
  client: BatonClient,
  ref: Ref,
  path: string,
  source: TranscriptSource,
  create: boolean,
): Promise<{ status: StatusView; created: boolean }> {
  try {
    return { status: (await client.status(ref)) as StatusView, created: false };
  } catch (e) {
    if (!create || ref.workflowId || !BatonError.isInstance(e) || e.code !== 'not_found') throw e;
    // a file of the wrong kind is refused before anything is created
    checkFormat((await readNewBytes(path, 0)).text, source, path);
    const w = await client.create({
      title: `${agentLabel(source)} session ${basename(path)}`,
      title_from_request: true,
      tasks: [],
      cwd: ref.cwd,
    });
    return { status: (await client.status({ ...ref, workflowId: w.id })) as StatusView, created: true };
  }
}

/**
 * The open errors a new piece may resolve: the state's newest ones, or, when more are open than the state keeps
 * (OPEN_ERRORS_LIMIT), all of them from their records, so an old failure fixed at last is marked fixed too.
 */
async function allOpenErrors(client: BatonClient, ref: Ref, status: StatusView): Promise<OpenError[]> {
  const kept = status.open_errors ?? [];
  if ((status.counts?.open_errors ?? kept.length) <= kept.length) return kept;
  const all = (await client.details(ref, null, 'errors')) as (OpenError & { resolution: string })[];
  return all.filter((e) => e.resolution === 'unresolved');
}

/**
 * Reads what was appended to a transcript file since its last import (from the stored byte offset, with the parser's
 * carried state) and appends what it holds to the workflow in one commit, then follows the agent's task list in
 * the task graph. A piece with no new entries writes nothing.
 */
export async function importTranscriptFile(
  client: BatonClient,
  ref: Ref,
  path: string,
  source: TranscriptSource,
  opts: {
    extractor?: Extractor;
    taskId?: string | null;
    create?: boolean;
    /**
     * A sub-agent's own file: only these kinds of what it holds are recorded (its test runs, the files it changed:
     * what it asked, said and planned are the main conversation's to say), and its task list is not followed.
     */
    only?: readonly RecordInput['kind'][];
  } = {},
) {
  const { create = false, only, ...extraction } = opts;
  const { status, created } = await targetOf(client, ref, path, source, create);
  const target = { ...ref, workflowId: status.workflow.id };
  // The recent imports' marks with their parsers' carry-over, which a status leaves out. An older transcript's mark
  // is found in its record, so a re-import reads on from its offset (nothing read twice, nothing recorded twice).
  const recent = (await client.imports(target, undefined, { recent: true })).imports;
  const previous = recent.find((i) => i.path === path) ?? (await client.imports(target, path)).imports.at(-1);
  // Imports made before byte offsets were kept are read again from the start, their lines skipped.
  const from = previous?.through_byte ?? 0;
  const piece = await readNewBytes(path, from);
  const warnings: string[] = [];
  if (piece.restarted)
    warnings.push(
      `the transcript is shorter than at its last import (${piece.size} < ${from} bytes): read again from the start`,
    );
  const continuing = previous !== undefined && previous.through_byte !== undefined && !piece.restarted;
  const format =
    continuing && specific.has(previous.format)
      ? checkSource(previous.format as TranscriptFormat, source, path)
      : checkFormat(piece.text, source, path);
  const known = knownOf(
    status,
    await allOpenErrors(client, target, status),
    Object.fromEntries(recent.map(({ transcript_session_id: id, ...mark }) => [id, mark])),
  );
  const r = await importTranscript(piece.text, source, format, known, {
    path,
    ...extraction,
    ...(continuing ? { before: await readLinesBefore(path, from, LOOK_BACK_BYTES, LOOK_BACK_LINES) } : {}),
    startLine: continuing ? previous.through_line : 0,
    state: continuing ? previous.parser_state : undefined,
    skipThroughLine: !continuing && previous && !piece.restarted ? previous.through_line : 0,
    throughByte: piece.end,
    worktree: status.workflow.worktree ?? null,
    // a conversation that went on after its workflow was abandoned: what it wrote before this workflow began (the rest
    // of the abandoned turn) is that work's
    notBefore: status.workflow.earlier?.abandoned_at ? (status.workflow.created_at ?? null) : null,
  });
  const others = cwdsOfOtherTranscripts(known.imports, path);
  const elsewhere =
    recordedElsewhere(r.parsed.cwd, status.workflow.worktree ?? null) ??
    apartFromTheOthers(r.parsed.cwd, others) ??
    (previous === undefined ? fromAnotherMachine(r.parsed.cwd, others) : null);
  if (elsewhere) warnings.push(elsewhere);
  const newLines = r.parsed.lines - (continuing ? previous.through_line : 0);
  if (r.parsed.entries.length === 0 && newLines > 0 && r.parsed.skipped.length === newLines)
    warnings.push('no line of the new part is a transcript line: nothing imported');
  const tasks = noTaskSync();
  const records = only ? r.records.filter((x) => only.includes(x.kind)) : r.records;
  if (r.newEntries > 0 || records.length > 0) {
    // where this piece starts: an import of the same transcript that got further meanwhile refuses it (a conflict)
    const fromLine = piece.restarted ? undefined : (previous?.through_line ?? 0);
    await client.recordBatch(target, records, {
      ...r.marker,
      ...(fromLine !== undefined ? { from_line: fromLine } : {}),
    });
    // One call at a time, in order: a later call that empties the list (a finished TodoWrite list cleared) must
    // not hide the items and statuses the earlier calls gave.
    for (const call of only ? [] : r.task_calls) {
      try {
        const synced = await client.syncAgentTasks(target, { source, calls: [call], read: true });
        tasks.added.push(...synced.added);
        tasks.started.push(...synced.started);
        tasks.completed.push(...synced.completed);
        tasks.skipped.push(...synced.skipped);
        tasks.retitled.push(...synced.retitled);
        tasks.linked.push(...synced.linked);
        for (const x of synced.not_linked ?? []) warnings.push(notLinkedPhrase(x));
        if (synced.paused_snapshot_id) tasks.paused_snapshot_id = synced.paused_snapshot_id;
      } catch (e) {
        if (!BatonError.isInstance(e) || e.code !== 'invalid_transition') throw e;
        warnings.push(`the agent's task list was not followed: ${e.message}`);
        break;
      }
    }
  }
  return {
    workflow_id: status.workflow.id,
    /** Whether this import created the workflow (the worktree had none). */
    created,
    format,
    transcript_session_id: r.marker.transcript_session_id,
    read: {
      from_byte: piece.restarted ? 0 : from,
      to_byte: piece.end,
      bytes: piece.end - (piece.restarted ? 0 : from),
    },
    lines: r.parsed.lines,
    entries: r.parsed.entries.length,
    new_entries: r.newEntries,
    skipped: r.parsed.skipped,
    records: r.counts,
    extractor: r.extractor,
    compactions: r.parsed.compactions.map((c) => ({
      line: c.line,
      at: c.at,
      trigger: c.trigger,
      pre_tokens: c.pre_tokens,
    })),
    usage: r.usage,
    /** The file's size when it was read. */
    bytes: piece.size,
    /** What following the agent's task list did to the task graph. */
    agent_tasks: tasks,
    /**
     * The usage limit's notice this piece ends on (the agent stopped on it: Codex says a limit only in its rollout),
     * with its reset, as recorded; null when the piece does not end on one.
     */
    stopped_on_limit: limitIn(records),
    /** The piece ends on the user's interruption of the agent's turn (Esc, Ctrl-C): that turn is over. */
    stopped_by_user: records.some((x) => x.kind === 'summary' && x.summary.kind === 'interrupted'),
    warnings,
  };
}

/** Where the workflow's other transcripts were recorded, as their parser states keep it. */
function cwdsOfOtherTranscripts(imports: Known['imports'], path: string): string[] {
  const cwds = Object.values(imports)
    .filter((i) => i.path !== path)
    .map((i) => cwdOf(i.parser_state))
    .filter((cwd): cwd is string => !!cwd);
  return [...new Set(cwds)];
}

/**
 * A transcript from another machine (its folder is not here, so the worktree cannot tell) recorded in a folder none
 * of the workflow's other transcripts was recorded in: likely another project's session, imported as asked and said.
 */
function apartFromTheOthers(cwd: string | null, others: string[]): string | null {
  if (!cwd || existsSync(cwd) || others.length === 0 || others.some((o) => nested(o, cwd))) return null;
  return `the transcript was recorded in ${cwd}, where none of this workflow's other transcripts was (${others.join(', ')}): if it is another project's session, import it into a workflow of its own (baton create, then baton import <file> -w <id>)`;
}

/**
 * A transcript's first import, recorded in a folder this machine does not have, into a workflow no other transcript
 * fed: another machine's session (a laptop's, a container's), taken as this worktree's work; said once, in case it is
 * another project's.
 */
function fromAnotherMachine(cwd: string | null, others: string[]): string | null {
  if (!cwd || existsSync(cwd) || others.length > 0) return null;
  return `the transcript was recorded in ${cwd}, a folder this machine does not have (another machine's session): imported as this worktree's work; if it is another project's, import it into a workflow of its own (baton create, then baton import <file> -w <id>)`;
}

/** The usage-limit summary among an import's records (there is at most one: the notice the piece ends on). */
function limitIn(records: readonly RecordInput[]): { notice: string; resets_at: string | null } | null {
  for (const r of records)
    if (r.kind === 'summary' && r.summary.kind === 'usage_limit')
      return { notice: r.summary.text, resets_at: r.summary.resets_at ?? null };
  return null;
}

/**
 * A transcript the agent wrote in a folder of this machine outside the workflow's worktree (another project, another
 * worktree of the repository): imported as asked, and said, since it is likely the wrong file or workflow.
 */
function recordedElsewhere(cwd: string | null, worktree: string | null): string | null {
  // only folders of this machine (a worktree since removed, another machine's path: nothing to say)
  if (!cwd || !worktree || !existsSync(cwd) || !existsSync(worktree)) return null;
  const rel = relative(realpathSync(worktree), realpathSync(cwd));
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return null;
  return `the transcript was recorded in ${cwd}, outside this workflow's worktree ${worktree}: if it belongs to another project, import it there (or name its workflow with -w)`;
}
