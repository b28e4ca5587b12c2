import {
  type AlsoOpen,
  BatonError,
  errorCodes,
  type ErrorCode,
  type SnapshotTrigger,
} from '../core/index.js';
import type {
  CompiledContext,
  DetailsPaging,
  ImportMarker,
  QueueEntry,
  QueueListing,
  SubmitRequest,
} from '../service/index.js';
import { isLiveSnapshotId, liveSnapshotId } from '../service/index.js';
import type {
  AskedBy,
  PersonAsking,
  BatonClient,
  Channel,
  PauseResult,
  RecordInput,
  RecordResult,
  Ref,
  TaskAction,
  TaskAddResult,
} from './baton-client.js';
import type { WorkflowView } from './views.js';

const recordPaths: Record<RecordInput['kind'], string> = {
  decision: 'decisions',
  error: 'errors',
  history: 'history',
  test: 'test-runs',
  usage: 'usage',
  feedback: 'reviewer-feedback',
  side_effect: 'records',
  summary: 'records',
  resolution: 'records',
  ci: 'records',
  request: 'requests',
};

const e = encodeURIComponent;
const resolvesCurrent = /^\/api\/workflows\/current(\/|\?|$)/;

/** How long a request waits for the server's whole answer by default (no call of Baton's takes near this long). */
export const REQUEST_TIMEOUT_MS = 60_000;

/** What to check when a server does not answer. */
export const HUNG_HINT =
  'check that `baton serve` runs there, not stopped or hung (a stopped process goes on with `kill -CONT <pid>`; else restart it)';

/**
 * The BatonClient over HTTP: every call is one request to a Baton server's API, with the bearer token and, for a
 * call without a workflow id, the caller's working directory (X-Baton-Cwd) so that `current` resolves to the same
 * worktree as locally. Errors
 * come back as the same BatonError codes, so the CLI prints and exits the same way in both modes.
 */
export class HttpClient implements BatonClient {
  /** The server's address, without a trailing slash. */
  readonly base: string;
  private readonly identity: (() => Promise<string | null>) | null;

  constructor(
    url: string,
    private readonly token: string | null,
    private readonly cwd: string,
    /** Where the token came from, in words (`BATON_TOKEN`, `the token in ~/.baton/token`), said when refused. */
    private readonly tokenFrom = 'the token given',
    /** How long a request waits for the server's whole answer (BATON_REQUEST_TIMEOUT). */
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
    /**
     * Who acts in what the calls change (X-Baton-Actor): the actor the CLI would act as on its own database, so a
     * person's command, an agent's hook or `--actor` is the same in the server's log; null: the server's own.
     */
    private readonly actor: string | null = null,
    /**
     * The git identity of the person asking (X-Baton-Identity, asked once, at the first request; null: none is set
     * where they are): whose work is whose is told by it on a server a team shares, not by the server's own.
     * Unset: the header is not sent, and the server judges by its own.
     */
    identity?: () => Promise<string | null>,
  ) {
    let asked: Promise<string | null> | undefined;
    this.identity = identity ? () => (asked ??= identity()) : null;
    // the server's address, also when given as its API's (`http://host:7420/api`)
    this.base = url.replace(/\/+$/, '').replace(/\/api$/, '');
  }

  /**
   * Whether the server answers its health check within `ms`: `silent` when it took the connection and said nothing
   * (stopped, hung), `unreachable` when the connection failed (no server there: a call says why at once).
   */
  async health(ms: number): Promise<'answers' | 'silent' | 'unreachable'> {
    const signal = AbortSignal.timeout(ms);
    try {
      const res = await fetch(`${this.base}/healthz`, { signal });
      await res.arrayBuffer();
      return 'answers';
    } catch {
      return signal.aborted ? 'silent' : 'unreachable';
    }
  }

  private wf(ref: Ref) {
    return `/api/workflows/${e(ref.workflowId ?? 'current')}`;
  }

  /** `by`: who asks, for this call alone (a person's identity given to `resume`...), else the client's own. */
  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
    ref?: Ref,
    by: AskedBy = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (this.actor) headers['x-baton-actor'] = this.actor;
    // who asks, in every request: the one way a server is told it (the body's `identity` of older CLIs is not sent,
    // so a server older than the header ignores it instead of refusing the request)
    const asker = by.identity !== undefined ? by.identity : await this.identity?.();
    if (asker !== undefined) headers['x-baton-identity'] = e(asker ?? '');
    // The working directory is sent only to resolve `current`: a path of this machine means nothing to a server on
    // another one, so a call naming its workflow works from anywhere.
    const cwd = resolvesCurrent.test(path) ? (ref?.cwd ?? this.cwd) : null;
    if (cwd) headers['x-baton-cwd'] = cwd;
    if (cwd && ref?.following) headers['x-baton-following'] = ref.following;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    // one signal for the answer and its body: a server that takes the connection and never answers (stopped, hung)
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      res = await fetch(this.base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      text = await res.text();
    } catch (err) {
      if (signal.aborted)
        throw new BatonError(
          'unavailable',
          `the Baton server at ${this.base} did not answer ${method} ${path} within ${this.timeoutMs / 1000} s (BATON_REQUEST_TIMEOUT): ${HUNG_HINT}`,
        );
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new BatonError(
        'unavailable',
        `cannot reach the Baton server at ${this.base} (${cause?.code ?? cause?.message ?? (err as Error).message}); start it with \`baton serve\` where it runs, or use the server's database directly (BATON_DATABASE_URL or --database instead of BATON_URL / --server); unsetting BATON_URL alone works on this machine's own database, a log the server never sees unless it ran here on that same database`,
      );
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (res.ok) return json as T;
    const err = (json as { error?: { code?: string; message?: string } } | null)?.error;
    const code: ErrorCode = (errorCodes as readonly string[]).includes(err?.code ?? '')
      ? (err?.code as ErrorCode)
      : res.status === 401
        ? 'invalid_input'
        : res.status === 404
          ? 'not_found'
          : res.status === 409
            ? 'conflict'
            : res.status < 500
              ? 'invalid_input'
              : 'unavailable';
    const { code: _c, message: _m, ...details } = (err ?? {}) as Record<string, unknown>;
    // the server's message says where its token is printed; this says what was sent, from where; a failure of the
    // server itself (its database unreachable) is fixed where it runs, not in this shell's settings
    const hint =
      res.status === 401
        ? ` (sent ${this.tokenFrom}; set BATON_TOKEN to the server's token)`
        : res.status >= 500
          ? ` (said by the Baton server at ${this.base}: the settings named are the server's, where it runs)`
          : '';
    throw new BatonError(code, `${err?.message ?? `${res.status} ${res.statusText}`}${hint}`, details);
  }

  async create(input: Parameters<BatonClient['create']>[0]) {
    const out = await this.call<{ workflow: WorkflowView }>('POST', '/api/workflows', {
      title: input.title,
      tasks: input.tasks,
      ...(input.issue !== undefined ? { issue: input.issue } : {}),
      ...(input.plan !== undefined ? { plan: input.plan } : {}),
      ...(input.worktree ? { worktree: input.worktree } : {}),
      ...(input.title_from_request ? { title_from_request: true } : {}),
      cwd: input.cwd ?? this.cwd,
    });
    return out.workflow;
  }

  async list(filter: Parameters<BatonClient['list']>[0] = {}) {
    const q = new URLSearchParams();
    if (filter.status?.length) q.set('status', filter.status.join(','));
    if (filter.worktree) q.set('worktree', filter.worktree);
    const qs = q.toString();
    return (await this.call<{ workflows: WorkflowView[] }>('GET', `/api/workflows${qs ? `?${qs}` : ''}`))
      .workflows;
  }

  async get(ref: Ref) {
    return (await this.call<{ workflow: WorkflowView }>('GET', this.wf(ref), undefined, ref)).workflow;
  }

  async taken(ref: Ref, opts: { ask?: boolean } = {}) {
    const out = await this.call<{ workflow: WorkflowView; also_open?: AlsoOpen[] }>(
      'GET',
      `${this.wf(ref)}${opts.ask ? '?ask=true' : ''}`,
      undefined,
      ref,
    );
    return { workflow: out.workflow, also_open: out.also_open ?? [] };
  }

  status(ref: Ref) {
    return this.call<Awaited<ReturnType<BatonClient['status']>>>(
      'GET',
      `${this.wf(ref)}/status`,
      undefined,
      ref,
    );
  }

  task(ref: Ref, action: TaskAction, taskId: string, note: string | null = null) {
    return this.call<Awaited<ReturnType<BatonClient['task']>>>(
      'POST',
      `${this.wf(ref)}/tasks/${e(taskId)}/${action}`,
      { note },
      ref,
    );
  }

  addTask(ref: Ref, input: Parameters<BatonClient['addTask']>[1]) {
    return this.call<TaskAddResult>('POST', `${this.wf(ref)}/tasks`, input, ref);
  }

  syncAgentTasks(ref: Ref, input: Parameters<BatonClient['syncAgentTasks']>[1]) {
    return this.call<Awaited<ReturnType<BatonClient['syncAgentTasks']>>>(
      'POST',
      `${this.wf(ref)}/agent-tasks`,
      input,
      ref,
    );
  }

  trackSession(input: Parameters<BatonClient['trackSession']>[0]) {
    return this.call<Awaited<ReturnType<BatonClient['trackSession']>>>(
      'POST',
      '/api/agent-sessions/track',
      input,
    );
  }

  startAgentSession(input: Parameters<BatonClient['startAgentSession']>[0]) {
    return this.call<Awaited<ReturnType<BatonClient['startAgentSession']>>>(
      'POST',
      '/api/agent-sessions/start',
      input,
    );
  }

  injectContext(ref: Ref, input: Parameters<BatonClient['injectContext']>[1]) {
    return this.call<Awaited<ReturnType<BatonClient['injectContext']>>>(
      'POST',
      `${this.wf(ref)}/context/inject`,
      input,
      ref,
    );
  }

  noteCompaction(ref: Ref, input: Parameters<BatonClient['noteCompaction']>[1]) {
    return this.call<{ workflow_id: string; reinject: boolean }>(
      'POST',
      `${this.wf(ref)}/compactions`,
      input,
      ref,
    );
  }

  endAgentSession(ref: Ref, input: Parameters<BatonClient['endAgentSession']>[1]) {
    return this.call<Awaited<ReturnType<BatonClient['endAgentSession']>>>(
      'POST',
      `${this.wf(ref)}/agent-sessions/end`,
      input,
      ref,
    );
  }

  endAgentTurn(ref: Ref, input: Parameters<BatonClient['endAgentTurn']>[1]) {
    return this.call<Awaited<ReturnType<BatonClient['endAgentTurn']>>>(
      'POST',
      `${this.wf(ref)}/agent-sessions/turn-ended`,
      input,
      ref,
    );
  }

  checkpointIfDue(ref: Ref, input: Parameters<BatonClient['checkpointIfDue']>[1]) {
    return this.call<Awaited<ReturnType<BatonClient['checkpointIfDue']>>>(
      'POST',
      `${this.wf(ref)}/checkpoints/if-due`,
      input,
      ref,
    );
  }

  async record<I extends RecordInput>(ref: Ref, input: I): Promise<RecordResult<I['kind']>> {
    if (
      input.kind === 'side_effect' ||
      input.kind === 'summary' ||
      input.kind === 'resolution' ||
      input.kind === 'ci'
    ) {
      // kinds without an endpoint of their own go through the batch endpoint, which answers with a count
      const out = await this.recordBatch(ref, [input]);
      return { workflow_id: out.workflow_id, kind: input.kind, record: null };
    }
    const body =
      input.kind === 'decision'
        ? input.decision
        : input.kind === 'error'
          ? input.error
          : input.kind === 'history'
            ? { text: input.text, task_id: input.task_id, source: input.source }
            : input.kind === 'test'
              ? input.test
              : input.kind === 'usage'
                ? input.usage
                : input.kind === 'request'
                  ? { text: input.text, at: input.at ?? null, source: input.source ?? null }
                  : input.feedback;
    return this.call<RecordResult<I['kind']>>(
      'POST',
      `${this.wf(ref)}/${recordPaths[input.kind]}`,
      body,
      ref,
    );
  }

  resolveError(
    ref: Ref,
    errorId: string,
    resolution: Parameters<BatonClient['resolveError']>[2],
    notes: string | null,
  ) {
    return this.call<Awaited<ReturnType<BatonClient['resolveError']>>>(
      'POST',
      `${this.wf(ref)}/errors/${e(errorId)}/resolve`,
      { resolution, notes },
      ref,
    );
  }

  addressFeedback(ref: Ref, reviewId: string) {
    return this.call<Awaited<ReturnType<BatonClient['addressFeedback']>>>(
      'POST',
      `${this.wf(ref)}/reviewer-feedback/${e(reviewId)}/addressed`,
      undefined,
      ref,
    );
  }

  pause(
    ref: Ref,
    input: { reason?: string | null; force?: boolean; timeout_ms?: number; asked_by?: 'agent' },
    by: PersonAsking = {},
  ) {
    return this.call<PauseResult>(
      'POST',
      `${this.wf(ref)}/pause`,
      {
        reason: input.reason ?? null,
        force: input.force ?? false,
        ...(input.timeout_ms ? { timeout_ms: input.timeout_ms } : {}),
        // sent only when meant: a server older than it refuses no other pause
        ...(by.theirs ? { theirs: true } : {}),
        ...(input.asked_by ? { asked_by: input.asked_by } : {}),
      },
      ref,
      by,
    );
  }

  resume(ref: Ref, by: PersonAsking = {}) {
    return this.call<Awaited<ReturnType<BatonClient['resume']>>>(
      'POST',
      `${this.wf(ref)}/resume`,
      by.theirs ? { theirs: true } : undefined,
      ref,
      by,
    );
  }

  context(ref: Ref, budget?: number) {
    const query = budget === undefined ? '' : `?budget=${budget}`;
    return this.call<CompiledContext>('GET', `${this.wf(ref)}/context${query}`, undefined, ref);
  }

  deliverContext(ref: Ref, via: Channel, budget?: number) {
    return this.call<CompiledContext>('POST', `${this.wf(ref)}/context/deliver`, { via, budget }, ref);
  }

  acknowledge(ref: Ref, hash: string, via: Channel = 'cli') {
    return this.call<Awaited<ReturnType<BatonClient['acknowledge']>>>(
      'POST',
      `${this.wf(ref)}/context/ack`,
      { hash, via },
      ref,
    );
  }

  snapshotNow(ref: Ref, trigger: SnapshotTrigger, reason: string | null) {
    return this.call<{ workflow_id: string; snapshot_id: string }>(
      'POST',
      `${this.wf(ref)}/snapshots`,
      { trigger, reason },
      ref,
    );
  }

  recordBatch(ref: Ref, inputs: RecordInput[], imported?: ImportMarker) {
    const body = imported ? { records: inputs, import: imported } : { records: inputs };
    return this.call<{ workflow_id: string; count: number }>('POST', `${this.wf(ref)}/records`, body, ref);
  }

  snapshots(ref: Ref) {
    return this.call<Awaited<ReturnType<BatonClient['snapshots']>>>(
      'GET',
      `${this.wf(ref)}/snapshots`,
      undefined,
      ref,
    );
  }

  /**
   * A snapshot's path: under its workflow when the ref names one or the id is a live one (`live-<version>` names no
   * workflow: the worktree's, as locally), else by id alone.
   */
  private snapshotPath(ref: Ref, snapshotId: string) {
    return ref.workflowId || isLiveSnapshotId(snapshotId)
      ? `${this.wf(ref)}/snapshots/${e(snapshotId)}`
      : `/api/snapshots/${e(snapshotId)}`;
  }

  snapshot(ref: Ref, snapshotId: string) {
    return this.call<Awaited<ReturnType<BatonClient['snapshot']>>>(
      'GET',
      this.snapshotPath(ref, snapshotId),
      undefined,
      ref,
    );
  }

  async details(
    ref: Ref,
    snapshotId: string | null,
    category: Parameters<BatonClient['details']>[2],
    paging?: DetailsPaging,
  ) {
    // any live id up to the workflow's version names it as it stands now
    const id = snapshotId ?? liveSnapshotId({ version: (await this.get(ref)).version });
    const page = paging
      ? `?limit=${paging.limit}${paging.before !== undefined ? `&before=${paging.before}` : ''}`
      : '';
    return this.call<Awaited<ReturnType<BatonClient['details']>>>(
      'GET',
      `${this.snapshotPath(ref, id)}/${category}${page}`,
      undefined,
      ref,
    );
  }

  checkpoint(ref: Ref, name: string) {
    return this.call<Awaited<ReturnType<BatonClient['checkpoint']>>>(
      'POST',
      `${this.wf(ref)}/checkpoints`,
      { name },
      ref,
    );
  }

  checkpoints(ref: Ref) {
    return this.call<Awaited<ReturnType<BatonClient['checkpoints']>>>(
      'GET',
      `${this.wf(ref)}/checkpoints`,
      undefined,
      ref,
    );
  }

  imports(ref: Ref, path?: string, opts: { recent?: boolean } = {}) {
    const q = [...(path === undefined ? [] : [`path=${e(path)}`]), ...(opts.recent ? ['recent=true'] : [])];
    const query = q.length ? `?${q.join('&')}` : '';
    return this.call<Awaited<ReturnType<BatonClient['imports']>>>(
      'GET',
      `${this.wf(ref)}/imports${query}`,
      undefined,
      ref,
    );
  }

  recoveryOptions(ref: Ref, by: AskedBy = {}) {
    return this.call<Awaited<ReturnType<BatonClient['recoveryOptions']>>>(
      'GET',
      `${this.wf(ref)}/recovery-options`,
      undefined,
      ref,
      by,
    );
  }

  restoreCheckpoint(
    ref: Ref,
    checkpoint: string | null,
    opts: Parameters<BatonClient['restoreCheckpoint']>[2],
  ) {
    return this.call<Awaited<ReturnType<BatonClient['restoreCheckpoint']>>>(
      'POST',
      `${this.wf(ref)}/restore`,
      {
        checkpoint,
        stash: opts.stash === true,
        force: opts.force === true,
        dry_run: opts.dryRun === true,
        confirm: opts.confirm === true,
      },
      ref,
      { identity: opts.identity },
    );
  }

  history(ref: Ref, after = 0, limit = 200) {
    return this.call<Awaited<ReturnType<BatonClient['history']>>>(
      'GET',
      `${this.wf(ref)}/events?after=${after}&limit=${limit}`,
      undefined,
      ref,
    );
  }

  taskLogs(ref: Ref) {
    return this.call<Awaited<ReturnType<BatonClient['taskLogs']>>>(
      'GET',
      `${this.wf(ref)}/logs`,
      undefined,
      ref,
    );
  }

  standing(ref: Ref) {
    return this.call<Awaited<ReturnType<BatonClient['standing']>>>(
      'GET',
      `${this.wf(ref)}/standing`,
      undefined,
      ref,
    );
  }

  taskLog(ref: Ref, name: string, offset = 0, limit = 256 * 1024) {
    return this.call<Awaited<ReturnType<BatonClient['taskLog']>>>(
      'GET',
      `${this.wf(ref)}/logs/${e(name)}?offset=${offset}&limit=${limit}`,
      undefined,
      ref,
    );
  }

  recover(
    ref: Ref,
    option: Parameters<BatonClient['recover']>[1],
    checkpoint: string | null,
    by: PersonAsking = {},
  ) {
    return this.call<Awaited<ReturnType<BatonClient['recover']>>>(
      'POST',
      `${this.wf(ref)}/recover`,
      { option, checkpoint, ...(by.theirs ? { theirs: true } : {}) },
      ref,
      by,
    );
  }

  interrupt(ref: Ref, reason: string) {
    return this.call<Awaited<ReturnType<BatonClient['interrupt']>>>(
      'POST',
      `${this.wf(ref)}/interrupt`,
      { reason },
      ref,
    );
  }

  async abandon(ref: Ref, reason: string | null, by: PersonAsking = {}) {
    const body = { reason, ...(by.theirs ? { theirs: true } : {}) };
    return (await this.call<{ workflow: WorkflowView }>('POST', `${this.wf(ref)}/abandon`, body, ref, by))
      .workflow;
  }

  async complete(ref: Ref, input: { reason?: string | null; force?: boolean }) {
    const body = { reason: input.reason ?? null, force: input.force ?? false };
    return (await this.call<{ workflow: WorkflowView }>('POST', `${this.wf(ref)}/complete`, body, ref))
      .workflow;
  }

  cleanup(input: { olderThanMs: number; dryRun: boolean }) {
    return this.call<Awaited<ReturnType<BatonClient['cleanup']>>>('POST', '/api/cleanup', {
      older_than_ms: input.olderThanMs,
      dry_run: input.dryRun,
    });
  }

  submit(ref: Ref, input: SubmitRequest) {
    return this.call<QueueEntry>('POST', `${this.wf(ref)}/submit`, input, ref);
  }

  queue() {
    return this.call<{ entries: QueueListing[] }>('GET', '/api/queue');
  }

  executors() {
    return this.call<Awaited<ReturnType<BatonClient['executors']>>>('GET', '/api/executors');
  }

  async sessions() {
    return (
      await this.call<{ sessions: Awaited<ReturnType<BatonClient['sessions']>> }>('GET', '/api/sessions')
    ).sessions;
  }

  sessionStatus(ref: Ref, sessionNumber?: number) {
    const path =
      sessionNumber === undefined
        ? `${this.wf(ref)}/session-status`
        : `${this.wf(ref)}/sessions/${sessionNumber}/status`;
    return this.call<Awaited<ReturnType<BatonClient['sessionStatus']>>>('GET', path, undefined, ref);
  }

  sessionTimeline(ref: Ref) {
    return this.call<Awaited<ReturnType<BatonClient['sessionTimeline']>>>(
      'GET',
      `${this.wf(ref)}/sessions`,
      undefined,
      ref,
    );
  }

  rebuild(workflowId?: string) {
    return this.call<{ workflows: number; events: number }>(
      'POST',
      '/api/rebuild',
      workflowId ? { workflow_id: workflowId } : {},
    );
  }

  async close() {}
}
