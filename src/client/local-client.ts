import type {
  BatonService,
  DetailsPaging,
  ImportMarker,
  StatusView,
  SubmitRequest,
} from '../service/index.js';
import {
  askWhichRun,
  cleanup,
  followedBy,
  isLiveSnapshotId,
  listWork,
  liveSnapshotId,
  rebuild,
  submitWork,
} from '../service/index.js';
import { finishedWork, snapshotShown } from '../core/index.js';
import type {
  AskedBy,
  PersonAsking,
  BatonClient,
  Channel,
  RecordInput,
  RecordResult,
  Ref,
  TaskAction,
} from './baton-client.js';
import { workflowView } from './views.js';

/** The in-process client: calls the service directly (the CLI without a server). */
export class LocalClient implements BatonClient {
  constructor(
    readonly service: BatonService,
    private readonly onClose: () => Promise<void> = async () => undefined,
  ) {}

  private ref(ref: Ref) {
    return { workflowId: ref.workflowId, cwd: ref.cwd, following: ref.following, setup: ref.setup };
  }

  async create(input: Parameters<BatonService['create']>[0]) {
    return workflowView(await this.service.create(input));
  }

  async list(filter: Parameters<BatonService['list']>[0] = {}) {
    return (await this.service.list(filter)).map(workflowView);
  }

  async get(ref: Ref) {
    return workflowView(await this.service.resolve(this.ref(ref)));
  }

  async taken(ref: Ref, opts: { ask?: boolean } = {}) {
    const { state, also_open } = await this.service.resolveAmong(this.ref(ref), opts.ask ? askWhichRun : {});
    return { workflow: workflowView(state), also_open };
  }

  async status(ref: Ref): Promise<StatusView> {
    const { state, also_open } = await this.service.resolveAmong(this.ref(ref));
    const status = await this.service.queries.status(state);
    // taken among several workflows here for its conversation being at work last: the others are named beside it
    return also_open.length ? { ...status, also_open } : status;
  }

  async task(ref: Ref, action: TaskAction, taskId: string, note: string | null = null) {
    const r = this.ref(ref);
    const s = this.service;
    const out =
      action === 'start'
        ? await s.startTask(r, taskId)
        : action === 'done'
          ? await s.completeTask(r, taskId, note)
          : action === 'fail'
            ? await s.failTask(r, taskId, note)
            : action === 'block'
              ? await s.blockTask(r, taskId, note)
              : action === 'unblock'
                ? await s.unblockTask(r, taskId)
                : await s.skipTask(r, taskId, note);
    const task = out.state.tasks.find((t) => t.id === taskId);
    const extra = out.result && typeof out.result === 'object' ? out.result : {};
    return { workflow_id: out.state.id, workflow_status: out.state.status, ...extra, task };
  }

  async addTask(ref: Ref, input: Parameters<BatonService['addTask']>[1]) {
    const out = await this.service.addTask(this.ref(ref), input);
    return { workflow_id: out.state.id, workflow_status: out.state.status, task: out.result };
  }

  async syncAgentTasks(ref: Ref, input: Parameters<BatonClient['syncAgentTasks']>[1]) {
    const out = await this.service.syncAgentTasks(
      this.ref(ref),
      input.source,
      input.calls,
      input.tells === true,
      input.read === true,
    );
    return { workflow_id: out.state.id, ...out.result };
  }

  trackSession(input: Parameters<BatonClient['trackSession']>[0]) {
    return this.service.agentSessions.track(input);
  }

  startAgentSession(input: Parameters<BatonClient['startAgentSession']>[0]) {
    return this.service.agentSessions.start(input);
  }

  async injectContext(ref: Ref, input: { max_chars: number; reason: string }) {
    const id = (await this.service.resolve(this.ref(ref))).id;
    return this.service.agentSessions.inject(id, { maxChars: input.max_chars, reason: input.reason });
  }

  async noteCompaction(ref: Ref, input: Parameters<BatonClient['noteCompaction']>[1]) {
    const id = (await this.service.resolve(this.ref(ref))).id;
    const r = await this.service.agentSessions.noteCompaction(id, input);
    return { workflow_id: id, ...r };
  }

  async endAgentSession(ref: Ref, input: Parameters<BatonClient['endAgentSession']>[1]) {
    const id = (await this.service.resolve(this.ref(ref))).id;
    return { workflow_id: id, ...(await this.service.agentSessions.end(id, input)) };
  }

  async endAgentTurn(ref: Ref, input: Parameters<BatonClient['endAgentTurn']>[1]) {
    const id = (await this.service.resolve(this.ref(ref))).id;
    return { workflow_id: id, ...(await this.service.agentSessions.endTurn(id, input)) };
  }

  async checkpointIfDue(ref: Ref, input: { name: string; interval_ms: number }) {
    const id = (await this.service.resolve(this.ref(ref))).id;
    const r = await this.service.agentSessions.checkpointIfDue(id, {
      name: input.name,
      intervalMs: input.interval_ms,
    });
    return { workflow_id: id, ...r };
  }

  async record<I extends RecordInput>(ref: Ref, input: I): Promise<RecordResult<I['kind']>> {
    const out = await this.service.record(this.ref(ref), input);
    return { workflow_id: out.state.id, kind: input.kind, record: out.result };
  }

  async recordBatch(ref: Ref, inputs: RecordInput[], imported?: ImportMarker) {
    const out = await this.service.recordBatch(this.ref(ref), inputs, imported);
    return { workflow_id: out.state.id, count: inputs.length };
  }

  async resolveError(
    ref: Ref,
    errorId: string,
    resolution: Parameters<BatonService['resolveError']>[2],
    notes: string | null,
  ) {
    const out = await this.service.resolveError(this.ref(ref), errorId, resolution, notes);
    return { workflow_id: out.state.id, error: out.result };
  }

  async addressFeedback(ref: Ref, reviewId: string) {
    const out = await this.service.addressFeedback(this.ref(ref), reviewId);
    return { workflow_id: out.state.id, review_id: reviewId, addressed: true };
  }

  async pause(
    ref: Ref,
    input: { reason?: string | null; force?: boolean; timeout_ms?: number; asked_by?: 'agent' },
    by: PersonAsking = {},
  ) {
    const { result, state } = await this.service.pause(this.ref(ref), {
      reason: input.reason,
      force: input.force,
      timeoutMs: input.timeout_ms,
      ...(input.asked_by ? { askedBy: input.asked_by } : {}),
      // a person's pause, who asks known: a teammate's workflow needs `theirs`
      ...(by.identity !== undefined ? { asker: by.identity, theirs: by.theirs } : {}),
    });
    const waits = 'waiting_for' in result ? result : null;
    const pending = result.outcome === 'already_requested' ? result : null;
    const waiting = pending || result.outcome === 'requested' ? state.pause_request : null;
    return {
      workflow_id: state.id,
      outcome: result.outcome,
      status: state.status,
      snapshot_id: 'snapshot_id' in result ? result.snapshot_id : null,
      waiting_for: waits?.waiting_for ?? [],
      waiting_for_turn: waits?.waiting_for_turn ?? null,
      pause_request: waiting && {
        reason: waiting.reason,
        requested_at: waiting.requested_at,
        ...(waiting.timeout_ms ? { timeout_ms: waiting.timeout_ms } : {}),
      },
      ignored_reason: pending?.ignored_reason ?? null,
      warning: result.outcome === 'paused' ? result.warning : null,
      ...followedBy(state, this.service.options),
      completes_at_next_start: finishedWork(
        state,
        (this.service.options.now?.() ?? new Date()).toISOString(),
      ),
    };
  }

  /** A person's resume: a requested pause still waiting is withdrawn; else the work a worker ran is queued again. */
  resume(ref: Ref, by: PersonAsking = {}) {
    return this.service.resumeOrWithdraw(this.ref(ref), by.identity, by.theirs);
  }

  async context(ref: Ref, budget?: number) {
    return this.service.queries.context(await this.service.resolve(this.ref(ref)), budget);
  }

  deliverContext(ref: Ref, via: Channel, budget?: number) {
    return this.service.deliverContext(this.ref(ref), via, budget);
  }

  async acknowledge(ref: Ref, hash: string, via: Channel = 'cli') {
    const out = await this.service.acknowledgeContext(this.ref(ref), hash, via);
    return { workflow_id: out.state.id, ...out.result };
  }

  async snapshots(ref: Ref) {
    const s = await this.service.resolve(this.ref(ref));
    return { workflow_id: s.id, snapshots: await this.service.queries.snapshots(s.id) };
  }

  async snapshot(ref: Ref, snapshotId: string) {
    return snapshotShown(await this.snapshotAsStored(ref, snapshotId));
  }

  private async snapshotAsStored(ref: Ref, snapshotId: string) {
    if (isLiveSnapshotId(snapshotId))
      return this.service.queries.snapshot((await this.service.resolve(this.ref(ref))).id, snapshotId);
    if (!ref.workflowId) return this.service.queries.findSnapshot(snapshotId);
    return this.service.queries.snapshot(ref.workflowId, snapshotId);
  }

  async details(
    ref: Ref,
    snapshotId: string | null,
    category: Parameters<BatonService['queries']['details']>[1],
    paging?: DetailsPaging,
  ) {
    const id = snapshotId ?? liveSnapshotId(await this.service.resolve(this.ref(ref)));
    return this.service.queries.details(await this.snapshotAsStored(ref, id), category, paging);
  }

  async checkpoint(ref: Ref, name: string) {
    const out = await this.service.checkpoint(this.ref(ref), name);
    return { workflow_id: out.state.id, checkpoint: out.result };
  }

  async checkpoints(ref: Ref) {
    return this.service.queries.checkpoints(await this.service.resolve(this.ref(ref)));
  }

  async imports(ref: Ref, path?: string, opts: { recent?: boolean } = {}) {
    return this.service.queries.imports(await this.service.resolve(this.ref(ref)), path, opts);
  }

  recoveryOptions(ref: Ref, by: AskedBy = {}) {
    return this.service.recoveryOptions(this.ref(ref), by.identity);
  }

  restoreCheckpoint(
    ref: Ref,
    checkpoint: string | null,
    opts: Parameters<BatonClient['restoreCheckpoint']>[2],
  ) {
    return this.service.restoreCheckpoint(this.ref(ref), checkpoint, opts);
  }

  history(ref: Ref, after?: number, limit?: number) {
    return this.service.history(this.ref(ref), after, limit);
  }

  taskLogs(ref: Ref) {
    return this.service.taskLogs(this.ref(ref));
  }

  standing(ref: Ref) {
    return this.service.standing(this.ref(ref));
  }

  taskLog(ref: Ref, name: string, offset?: number, limit?: number) {
    return this.service.taskLog(this.ref(ref), name, offset, limit);
  }

  async recover(
    ref: Ref,
    option: Parameters<BatonService['recover']>[1],
    checkpoint: string | null,
    by: PersonAsking = {},
  ) {
    const out = await this.service.recover(this.ref(ref), option, checkpoint, by.identity, by.theirs);
    return { ...out, option };
  }

  async interrupt(ref: Ref, reason: string) {
    const out = await this.service.interrupt(this.ref(ref), reason);
    return { workflow_id: out.state.id, status: out.state.status, snapshot_id: out.result.id };
  }

  async snapshotNow(ref: Ref, trigger: Parameters<BatonService['snapshot']>[1], reason: string | null) {
    const out = await this.service.snapshot(this.ref(ref), trigger, reason);
    return { workflow_id: out.state.id, snapshot_id: out.result.id };
  }

  async abandon(ref: Ref, reason: string | null, by: PersonAsking = {}) {
    // a person's abandon, who asks known: a teammate's workflow needs `theirs`
    const ask = by.identity !== undefined ? { asker: by.identity, theirs: by.theirs } : undefined;
    return workflowView((await this.service.abandon(this.ref(ref), reason, ask)).state);
  }

  async complete(ref: Ref, input: { reason?: string | null; force?: boolean }) {
    return workflowView((await this.service.complete(this.ref(ref), input)).state);
  }

  cleanup(input: { olderThanMs: number; dryRun: boolean }) {
    return cleanup(
      this.service.store,
      input.olderThanMs,
      this.service.options.now?.() ?? new Date(),
      input.dryRun,
      this.service.options.releaseExecutor,
    );
  }

  submit(ref: Ref, input: SubmitRequest) {
    return submitWork(this.service, this.ref(ref), input);
  }

  async queue() {
    return { entries: await listWork(this.service) };
  }

  sessions(o: Parameters<BatonClient['sessions']>[0] = {}) {
    return this.service.sessions(o);
  }

  async executors() {
    return { executors: await this.service.executors() };
  }

  sessionStatus(ref: Ref, sessionNumber?: number) {
    return this.service.sessionStatus(this.ref(ref), sessionNumber);
  }

  sessionTimeline(ref: Ref) {
    return this.service.sessionTimeline(this.ref(ref));
  }

  rebuild(workflowId?: string) {
    return rebuild(this.service.store, workflowId);
  }

  close() {
    return this.onClose();
  }
}
