import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
  CheckpointRef,
  type BatonEvent,
  type RecoveryPlan,
  type SessionSnapshot,
  type WorkflowState,
} from '../core/index.js';
import type { CommandRunner } from '../service/command-runner.js';
import type { Store } from '../storage/store.js';
import { appendLines, jsonText, writeFilesAtomic, type FileText } from './atomic-file.js';
import { readEventLog } from './event-log-reader.js';
import { eventLine } from './event-line.js';
import { withLock } from '../storage/lock-file.js';
import { readJsonFile } from './read-json.js';
import { dropUnfinishedLine, eventFilesOf, inspectFolder, sizesOf, type FolderCheck } from './run-inspect.js';
import {
  liveStateDoc,
  manifestDoc,
  recoveryDoc,
  taskGraphDoc,
  workflowStateDoc,
  type RecoveryDoc,
} from './run-documents.js';
import { updateRegistry } from './registry.js';
import { registryPath, runFolderName, runPaths, runsDirFor } from './run-paths.js';

export interface MirrorOptions {
  /** The runs folder setting (`--runs-dir` / BATON_RUNS_DIR / runs_dir): absolute, or relative to each worktree. */
  runsDir?: string | null;
  now?: () => Date;
  /**
   * The recovery options `baton recover` gives for a state (the service's `recoveryPlan`, which asks git what a
   * checkpoint's restore would move): `recovery.json` then recommends what the command does. Without it (an import,
   * no service) the file holds the core's plan from the state alone.
   */
  recoveryPlan?: (s: WorkflowState) => Promise<RecoveryPlan>;
  /**
   * A write after a commit that failed (the folder stays behind the database): said where a person looks, as the
   * start's catch-up says its own failures, once while it stays the same for the workflow.
   */
  failed?: (workflowId: string, error: string) => void;
}

export type SyncOutcome = 'written' | 'repaired' | 'up_to_date' | 'behind' | 'skipped';

export interface CatchUpReport {
  written: string[];
  /** Workflows whose database rows are older than their run folder: the folder is left alone. */
  behind: { workflow_id: string; database_seq: number; disk_seq: number; dir: string }[];
  /** Damaged folders repaired from the database, with what was wrong. */
  repaired: { workflow_id: string; damage: string[] }[];
  failed: { workflow_id: string; error: string }[];
}

/**
 * The run folder mirror: after every commit it appends the new events to `events/<actor>/<date>.jsonl` and
 * rewrites the derived JSON files atomically; on start it catches up every run folder that lags the database.
 * The database stays the fast index; the folder holds the same truth in files a person, git or jq can read.
 */
export class DiskMirror {
  constructor(
    private readonly store: Store,
    private readonly options: MirrorOptions = {},
  ) {}

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  runsDirOf(worktree: string): string {
    return runsDirFor(worktree, this.options.runsDir);
  }

  runDirOf(s: Pick<WorkflowState, 'id' | 'worktree'>): string {
    return join(this.runsDirOf(s.worktree), runFolderName(s.id));
  }

  /** The newest state of each workflow waiting to be mirrored, and the worker draining them. */
  private readonly pending = new Map<string, WorkflowState>();
  private worker: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private delayMs = 100;

  /**
   * Hooks the mirror into the service. A commit only queues its workflow; shortly after (`delayMs`, 100 ms by
   * default) a background worker brings each queued folder up to the newest state, so a burst of commits costs one
   * folder write and no command waits for the files. A crash before the worker ran loses nothing: the folder lags
   * the database and is caught up on the next start. `flush()` writes at once (a CLI before it exits).
   */
  attach(runner: CommandRunner, delayMs = 100): () => void {
    this.delayMs = delayMs;
    const listener = (_events: readonly BatonEvent[], state: WorkflowState) => {
      this.pending.set(state.id, state);
      if (!this.worker) this.timer ??= setTimeout(() => this.start(), delayMs);
    };
    runner.listeners.add(listener);
    return () => runner.listeners.delete(listener);
  }

  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.worker ??= this.drain().finally(() => {
      this.worker = null;
      if (this.pending.size) this.timer ??= setTimeout(() => this.start(), this.delayMs);
    });
  }

  private async drain(): Promise<void> {
    for (;;) {
      const next = this.pending.values().next();
      if (next.done) return;
      const state = next.value;
      this.pending.delete(state.id);
      try {
        await this.sync(state);
        this.lastFailure.delete(state.id);
      } catch (e) {
        // The folder stays behind the database; the next sync or start catches it up. Said: a process that lasts (a
        // server, a run) would else write none of it again without a word, and a command's own commit goes unsaid.
        this.fail(state.id, (e as Error).message);
      }
    }
  }

  /** Each workflow's last failure said: the same one again (every commit of a server) is not repeated. */
  private readonly lastFailure = new Map<string, string>();

  private fail(workflowId: string, error: string): void {
    if (this.lastFailure.get(workflowId) === error) return;
    this.lastFailure.set(workflowId, error);
    this.options.failed?.(workflowId, error);
  }

  /** Waits until every queued workflow is mirrored (before a process exits). */
  async flush(): Promise<void> {
    while (this.pending.size || this.worker) {
      this.start();
      await this.worker;
    }
  }

  /** Whether a worktree can hold a run folder (a deleted temporary worktree is left alone). */
  private writable(s: WorkflowState): boolean {
    const custom = this.options.runsDir;
    return existsSync(s.worktree) || (!!custom && custom.startsWith('/'));
  }

  /** What the last `sync` of each workflow repaired (read by `catchUp`). */
  readonly repaired = new Map<string, string[]>();

  /**
   * Brings one run folder up to `state`: appends the events after the folder's last seq (from `events` when they
   * follow on, else read back from the store), then rewrites the documents and the registry. A folder found damaged
   * (see `inspectFolder`) is repaired from the database: every event the database holds that the folder cannot
   * read is appended again, an unfinished last line is dropped, and every document is rewritten. Files are written
   * under the run folder's lock (`.lock`), so two processes mirroring one workflow take turns.
   */
  async sync(state: WorkflowState, events: readonly BatonEvent[] = []): Promise<SyncOutcome> {
    if (!this.writable(state)) return 'skipped';
    const dir = this.runDirOf(state);
    const check = inspectFolder(dir, state);
    if (state.version < check.lastSeq) return 'behind';
    const repair = check.damage.length > 0;
    if (!repair && state.version === check.lastSeq) return 'up_to_date';
    const from = repair ? 0 : check.lastSeq;
    let fresh = events.filter((e) => e.seq > from);
    if (fresh[0]?.seq !== from + 1 || repair)
      fresh = (await this.store.readEvents(state.id, from)).filter((e) => e.seq <= state.version);
    // A repair rewrites every checkpoint and the latest snapshot, even those whose events are not in the log (a
    // workflow recovered with gaps): from the records.
    // The state keeps the recent checkpoints only; every one is a record.
    const known = repair
      ? {
          checkpoints: (await this.store.listRecords(state.id, 'checkpoint')).map((r) =>
            CheckpointRef.parse(r.data),
          ),
          last: state.last_snapshot?.id ?? null,
        }
      : undefined;
    const snapshots = await this.snapshotsOf(state, fresh, known);
    const recovery = await this.recoveryOf(state);
    this.prepareHome(state);
    mkdirSync(dir, { recursive: true });
    const outcome = withLock(join(dir, '.lock'), () => {
      const now = inspectFolder(dir, state);
      if (state.version < now.lastSeq || (!now.damage.length && state.version === now.lastSeq))
        return 'up_to_date' as const;
      const again = now.damage.length > 0;
      if (again && !repair) return 'retry' as const; // damaged since we looked: read everything and repair
      const present = again ? new Set(readEventLog(dir, state.id).events.map((e) => e.seq)) : null;
      const append = fresh.filter((e) => (present ? !present.has(e.seq) : e.seq > now.lastSeq));
      this.writeLocked(dir, state, append, fresh, snapshots, now, again, recovery, known?.checkpoints);
      if (again) this.repaired.set(state.id, now.damage);
      return again ? ('repaired' as const) : ('written' as const);
    });
    if (outcome === 'retry') return this.sync(state);
    if (outcome === 'up_to_date') return outcome;
    this.updateRegistry(state);
    return outcome;
  }

  /**
   * The snapshots the checkpoints among `events` (and `known`'s) point at, and `known`'s latest snapshot: from the
   * events, else read from the store.
   */
  private async snapshotsOf(
    state: WorkflowState,
    events: readonly BatonEvent[],
    known?: { checkpoints: readonly CheckpointRef[]; last: string | null },
  ) {
    const snapshots = new Map<string, SessionSnapshot>();
    for (const e of events)
      if (e.type === 'snapshot.taken') snapshots.set(e.data.snapshot.id, e.data.snapshot);
    const wanted = [
      ...events.flatMap((e) => (e.type === 'checkpoint.created' ? [e.data.checkpoint.snapshot_id] : [])),
      ...(known?.checkpoints ?? []).map((c) => c.snapshot_id),
      ...(known?.last ? [known.last] : []),
    ];
    for (const id of wanted) {
      if (snapshots.has(id)) continue;
      const row = await this.store.getRecord(state.id, 'snapshot', id);
      if (row) snapshots.set(id, row.data as SessionSnapshot);
    }
    return snapshots;
  }

  /**
   * The first time the folder holding the runs is made inside a worktree, it gets a `.gitignore` of `*`, so the
   * mirror never shows up as uncommitted work in git (or in Baton's own git captures). Delete it to commit runs.
   */
  private prepareHome(state: WorkflowState): void {
    const home = dirname(this.runsDirOf(state.worktree));
    if (existsSync(home)) return;
    mkdirSync(home, { recursive: true });
    const inside = relative(state.worktree, home);
    if (inside && !inside.startsWith('..'))
      writeFileSync(join(home, '.gitignore'), '# Baton run folders (see docs/files-on-disk.md)\n*\n');
  }

  /** Appends `append`, then rewrites the documents from `state` (`events`: what the documents are derived from). */
  private writeLocked(
    dir: string,
    state: WorkflowState,
    append: readonly BatonEvent[],
    events: readonly BatonEvent[],
    snapshots: ReadonlyMap<string, SessionSnapshot>,
    check: FolderCheck,
    repair: boolean,
    recovery: RecoveryDoc | null,
    checkpoints: readonly CheckpointRef[] = [],
  ) {
    const p = runPaths(dir);
    const byFile = new Map<string, string[]>();
    for (const e of append) {
      const file = p.eventFile(e);
      byFile.set(file, [...(byFile.get(file) ?? []), eventLine(e)]);
    }
    const touched = repair ? eventFilesOf(dir).map((f) => join(dir, f)) : [];
    for (const file of touched) dropUnfinishedLine(file);
    for (const [file, lines] of byFile) {
      if (!repair) dropUnfinishedLine(file);
      appendLines(file, lines);
    }
    const sizes = {
      ...(repair ? {} : check.eventFiles),
      ...sizesOf(dir, repair ? eventFilesOf(dir) : [...byFile.keys()].map((f) => relative(dir, f))),
    };
    this.writeDocuments(dir, state, events, snapshots, check.actors, sizes, recovery, checkpoints);
  }

  /**
   * What `recovery.json` holds while `state` is interrupted (null otherwise): the options `baton recover` gives,
   * asked before the folder's lock is taken (git is slow). When they cannot be planned, the core's plan from the state
   * alone, saying why, so the file never lags the events it is written with.
   */
  private async recoveryOf(state: WorkflowState): Promise<RecoveryDoc | null> {
    if (state.status !== 'interrupted') return null;
    const plan = this.options.recoveryPlan;
    if (!plan) return recoveryDoc(state);
    try {
      return await plan(state);
    } catch (e) {
      return {
        ...recoveryDoc(state),
        planning_error: `cannot plan the recovery (${(e as Error).message}): \`baton recover -w ${state.id}\` lists the options`,
      };
    }
  }

  /**
   * Rewrites every document of a run folder from `state` and the snapshots and checkpoints among `events`;
   * `recovery`: the content of `recovery.json` (see `recoveryOf`), written while the workflow is interrupted.
   */
  writeDocuments(
    dir: string,
    state: WorkflowState,
    events: readonly BatonEvent[],
    snapshots: ReadonlyMap<string, SessionSnapshot>,
    actors: string[],
    eventFiles: Record<string, number>,
    recovery: RecoveryDoc | null,
    known: readonly CheckpointRef[] = [],
  ) {
    const p = runPaths(dir);
    const now = this.now();
    // every document is written in one batch: a folder's files are synced with one sync of the folder
    const docs: FileText[] = [];
    const doc = (path: string, value: unknown) => docs.push({ path, text: jsonText(value) });
    const lastPerSession = new Map<number, SessionSnapshot>();
    const latest = state.last_snapshot && snapshots.get(state.last_snapshot.id);
    if (latest) lastPerSession.set(latest.session_number, latest);
    for (const e of events)
      if (e.type === 'snapshot.taken') lastPerSession.set(e.data.snapshot.session_number, e.data.snapshot);
    for (const [session, snap] of lastPerSession) doc(p.snapshot(session), snap);
    const fromEvents: CheckpointRef[] = [];
    for (const e of events) if (e.type === 'checkpoint.created') fromEvents.push(e.data.checkpoint);
    const checkpoints = [...new Map([...known, ...fromEvents].map((c) => [c.name, c])).values()];
    for (const cp of checkpoints)
      doc(p.checkpoint(cp.name), {
        schema_version: 1,
        checkpoint: cp,
        snapshot: snapshots.get(cp.snapshot_id) ?? null,
      });
    doc(p.workflowState, workflowStateDoc(state));
    doc(p.taskGraph, taskGraphDoc(state));
    if (
      !existsSync(p.plan) ||
      events.some((e) => e.type === 'workflow.created' || e.type === 'workflow.restored')
    )
      docs.push({ path: p.plan, text: state.plan });
    doc(p.liveState, liveStateDoc(state, now, checkpoints.length ? 'checkpoint' : 'action'));
    if (recovery) doc(p.recovery, recovery);
    const allActors = new Set([...actors, ...events.map((e) => e.actor)]);
    doc(p.manifest, manifestDoc(state, [...allActors], now, eventFiles));
    writeFilesAtomic(docs);
    if (!recovery) rmSync(p.recovery, { force: true });
  }

  /** Writes a complete run folder for `events` into `dir` (`baton export`). */
  async write(dir: string, state: WorkflowState, events: readonly BatonEvent[]) {
    const p = runPaths(dir);
    const byFile = new Map<string, string[]>();
    for (const e of events) byFile.set(p.eventFile(e), [...(byFile.get(p.eventFile(e)) ?? []), eventLine(e)]);
    for (const [file, lines] of byFile) appendLines(file, lines);
    const snapshots = await this.snapshotsOf(state, events);
    const recovery = await this.recoveryOf(state);
    this.writeDocuments(dir, state, events, snapshots, [], sizesOf(dir, eventFilesOf(dir)), recovery);
  }

  /** Rewrites this workflow's line of `sessions.json` under the registry's lock (see `updateRegistry`). */
  updateRegistry(state: WorkflowState): void {
    updateRegistry(registryPath(this.runsDirOf(state.worktree)), state, this.now());
  }

  /**
   * On start: every workflow of the database whose run folder lags it is brought up to date; with `mine`, only those
   * it says are the person's (`isOwner` at the worktree: a teammate's at the same path of a shared database is not
   * written into this clone).
   */
  async catchUp(
    filter: { worktree?: string; mine?: (s: WorkflowState) => Promise<boolean> } = {},
  ): Promise<CatchUpReport> {
    const report: CatchUpReport = { written: [], behind: [], repaired: [], failed: [] };
    const { mine: judge, ...where } = filter;
    const all = await this.store.listWorkflows(where);
    const owned = judge ? await Promise.all(all.map(judge)) : all.map(() => true);
    const mine = all.filter((_, i) => owned[i]);
    for (const s of mine) {
      try {
        const outcome = await this.sync(s);
        this.lastFailure.delete(s.id);
        if (outcome === 'written') report.written.push(s.id);
        if (outcome === 'repaired')
          report.repaired.push({ workflow_id: s.id, damage: this.repaired.get(s.id) ?? [] });
        if (outcome === 'behind') {
          const m = readJsonFile(runPaths(this.runDirOf(s)).manifest);
          const disk = m.ok ? Number((m.value as { last_seq?: unknown }).last_seq) : NaN;
          report.behind.push({
            workflow_id: s.id,
            database_seq: s.version,
            disk_seq: Number.isFinite(disk) ? disk : -1,
            dir: this.runDirOf(s),
          });
        }
      } catch (e) {
        const error = (e as Error).message;
        report.failed.push({ workflow_id: s.id, error });
        // reported by the caller: the same failure after a commit is not said again
        this.lastFailure.set(s.id, error);
      }
    }
    return report;
  }
}
