import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { BatonEvent, CheckpointRef, SessionSnapshot, WorkflowState } from '../core/index.js';
import type { CommandRunner } from '../service/command-runner.js';
import type { Store } from '../storage/store.js';
import { appendLines, writeFileAtomic, writeJsonAtomic } from './atomic-file.js';
import { readJsonFile } from './read-json.js';
import {
  liveStateDoc,
  manifestDoc,
  recoveryDoc,
  registryEntry,
  taskGraphDoc,
  workflowStateDoc,
  type RegistryEntry,
} from './run-documents.js';
import { registryPath, runFolderName, runPaths, runsDirFor } from './run-paths.js';
import { lastContiguousSeq } from './run-reader.js';

export interface MirrorOptions {
  /** The runs folder setting (`--runs-dir` / BATON_RUNS_DIR / runs_dir): absolute, or relative to each worktree. */
  runsDir?: string | null;
  now?: () => Date;
}

export type SyncOutcome = 'written' | 'up_to_date' | 'behind' | 'skipped';

export interface CatchUpReport {
  written: string[];
  /** Workflows whose database rows are older than their run folder: the folder is left alone. */
  behind: { workflow_id: string; database_seq: number; disk_seq: number; dir: string }[];
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
      } catch {
        // The folder stays behind the database; the next sync or start catches it up.
      }
    }
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

  /**
   * Brings one run folder up to `state`: appends the events after the folder's last seq (from `events` when they
   * follow on, else read back from the store), then rewrites the documents and the registry.
   */
  async sync(state: WorkflowState, events: readonly BatonEvent[] = []): Promise<SyncOutcome> {
    if (!this.writable(state)) return 'skipped';
    const dir = this.runDirOf(state);
    const manifest = readJsonFile(runPaths(dir).manifest);
    const fromManifest = manifest.ok ? (manifest.value as { last_seq?: unknown }).last_seq : undefined;
    const lastSeq =
      typeof fromManifest === 'number' ? fromManifest : existsSync(dir) ? lastContiguousSeq(dir) : 0;
    if (state.version < lastSeq) return 'behind';
    if (state.version === lastSeq) return 'up_to_date';
    this.prepareHome(state);
    let fresh = events.filter((e) => e.seq > lastSeq);
    if (fresh[0]?.seq !== lastSeq + 1) {
      fresh = (await this.store.readEvents(state.id, lastSeq)).filter((e) => e.seq <= state.version);
    }
    const actors = manifest.ok ? ((manifest.value as { actors?: unknown }).actors ?? []) : [];
    await this.write(dir, state, fresh, Array.isArray(actors) ? actors.map(String) : []);
    this.updateRegistry(state);
    return 'written';
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
      writeFileSync(join(home, '.gitignore'), '# Baton run folders (see the README, "Files on disk")\n*\n');
  }

  /** Appends `fresh` and rewrites every document of the run folder from `state`. */
  async write(dir: string, state: WorkflowState, fresh: readonly BatonEvent[], actors: string[]) {
    const p = runPaths(dir);
    const byFile = new Map<string, string[]>();
    for (const e of fresh) {
      const file = p.eventFile(e);
      byFile.set(file, [...(byFile.get(file) ?? []), JSON.stringify(e)]);
    }
    for (const [file, lines] of byFile) appendLines(file, lines);

    const now = this.now();
    const snapshots = new Map<string, SessionSnapshot>();
    const checkpoints: CheckpointRef[] = [];
    for (const e of fresh) {
      if (e.type === 'snapshot.taken') snapshots.set(e.data.snapshot.id, e.data.snapshot);
      if (e.type === 'checkpoint.created') checkpoints.push(e.data.checkpoint);
    }
    const lastPerSession = new Map([...snapshots.values()].map((s) => [s.session_number, s]));
    for (const [session, snap] of lastPerSession) writeJsonAtomic(p.snapshot(session), snap);
    for (const cp of checkpoints) {
      const snapshot =
        snapshots.get(cp.snapshot_id) ??
        ((await this.store.getRecord(state.id, 'snapshot', cp.snapshot_id))?.data as SessionSnapshot) ??
        null;
      writeJsonAtomic(p.checkpoint(cp.name), { schema_version: 1, checkpoint: cp, snapshot });
    }
    writeJsonAtomic(p.workflowState, workflowStateDoc(state));
    writeJsonAtomic(p.taskGraph, taskGraphDoc(state));
    if (!existsSync(p.plan) || fresh.some((e) => e.type === 'workflow.created'))
      writeFileAtomic(p.plan, state.plan);
    writeJsonAtomic(p.liveState, liveStateDoc(state, now, checkpoints.length ? 'checkpoint' : 'action'));
    if (state.status === 'interrupted') writeJsonAtomic(p.recovery, recoveryDoc(state, now));
    else rmSync(p.recovery, { force: true });
    const allActors = new Set([...actors, ...fresh.map((e) => e.actor)]);
    writeJsonAtomic(p.manifest, manifestDoc(state, [...allActors], now));
  }

  /** Rewrites this workflow's line of `sessions.json` (the other lines are kept as they are). */
  updateRegistry(state: WorkflowState): void {
    const path = registryPath(this.runsDirOf(state.worktree));
    const current = readJsonFile(path);
    const sessions = current.ok ? (current.value as { sessions?: unknown }).sessions : undefined;
    const others = (Array.isArray(sessions) ? (sessions as RegistryEntry[]) : []).filter(
      (s) => s && typeof s === 'object' && s.id !== state.id,
    );
    const all = [...others, registryEntry(state)].sort((a, b) =>
      String(a.created_at).localeCompare(String(b.created_at)),
    );
    const active = [...all].sort((a, b) => String(b.updated_at).localeCompare(String(a.updated_at)))[0];
    writeJsonAtomic(path, { version: '1.0.0', sessions: all, last_active_session: active?.id ?? null });
  }

  /** On start: every workflow of the database whose run folder lags it is brought up to date. */
  async catchUp(filter: { worktree?: string } = {}): Promise<CatchUpReport> {
    const report: CatchUpReport = { written: [], behind: [], failed: [] };
    for (const s of await this.store.listWorkflows(filter)) {
      try {
        const outcome = await this.sync(s);
        if (outcome === 'written') report.written.push(s.id);
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
        report.failed.push({ workflow_id: s.id, error: (e as Error).message });
      }
    }
    return report;
  }
}
