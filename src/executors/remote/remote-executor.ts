import { BatonError, type ExecutorChoice } from '../../core/index.js';
import type { ExecutorCredential } from '../../config/executor-token.js';
import type {
  AgentProcess,
  Executor,
  ExecutorRow,
  ExitStatus,
  LaunchSpec,
} from '../../service/runtime/runtime-ports.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A refusal that retrying cannot fix (token, Host, Origin, content type): reported at once, never retried. */
const refusal = (status: number) => status === 401 || status === 403 || status === 415;

/**
 * A remote agent host (`baton executor serve`). Its agents outlive the Baton server; the event stream is read
 * from an offset, and a broken connection is re-opened with backoff (0.2 s doubling to 5 s, for up to `giveUpMs`).
 * Every request carries the executor token (`BATON_EXECUTOR_TOKEN`, else `$BATON_HOME/executor-token`).
 */
export class RemoteExecutor implements Executor {
  readonly runtime = 'remote' as const;

  constructor(
    readonly endpoint: string,
    private readonly credential: ExecutorCredential | null = null,
    private readonly giveUpMs = 60_000,
  ) {}

  private readonly closing = new AbortController();

  get choice(): ExecutorChoice {
    return { executor: 'remote', executor_url: this.endpoint };
  }

  /** Stops following this host's runs at once (its container is gone): their `wait()` ends as `lost`. */
  close(reason: string) {
    this.closing.abort(new Error(reason));
  }

  private headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = json ? { 'content-type': 'application/json' } : {};
    if (this.credential?.token) h.authorization = `Bearer ${this.credential.token}`;
    return h;
  }

  /** The error of a refused request, naming where the token came from and what to do. */
  private refused(status: number, path: string, message: string): BatonError {
    const c = this.credential;
    const what =
      status !== 401
        ? `${message}`
        : !c?.token
          ? `it needs a token and Baton has none (${c ? `${c.source} does not exist` : 'no token was given'}); ${c?.hint ?? 'set BATON_EXECUTOR_TOKEN'}`
          : `it refused the token from ${c.source}; ${c.hint}`;
    return new BatonError(
      'invalid_input',
      `the executor ${this.endpoint} answered ${path} with ${status}: ${what}`,
      { endpoint: this.endpoint, status },
    );
  }

  private async call(method: string, path: string, body?: unknown) {
    const res = await fetch(new URL(path, this.endpoint), {
      method,
      headers: this.headers(method === 'POST'),
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      signal: AbortSignal.timeout(5000),
    });
    const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (refusal(res.status)) throw this.refused(res.status, path, String(data.error ?? ''));
    if (!res.ok)
      throw new BatonError(
        res.status === 404 ? 'not_found' : 'unavailable',
        `the executor ${this.endpoint} answered ${path} with ${res.status} ${String(data.error ?? '')}`,
      );
    return data;
  }

  /** Whether the host answers (retrying with backoff); a refusal (wrong token...) is thrown, not retried. */
  async health() {
    for (let delay = 200, tried = 0; tried < 5; tried++, delay *= 2) {
      try {
        return (await this.call('GET', '/health')).ok === true;
      } catch (e) {
        if (BatonError.isInstance(e) && e.code === 'invalid_input') throw e;
        await sleep(delay);
      }
    }
    return false;
  }

  /**
   * Before a run: the agent host answers (one try: a host that is not there is said at once, before a task starts or
   * anything is recorded); a refusal (the token) names where the token came from.
   */
  async preflight(): Promise<void> {
    try {
      await this.call('GET', '/health');
    } catch (e) {
      if (BatonError.isInstance(e)) throw e;
      throw new BatonError(
        'unavailable',
        `cannot reach the agent host ${this.endpoint} (${causeOf(e)}): start \`baton executor serve\` there, or point --executor-url (variable BATON_EXECUTOR_URL) at it. Nothing was changed`,
        { endpoint: this.endpoint },
      );
    }
  }

  async capabilities() {
    const c = await this.call('GET', '/capabilities');
    return {
      supports_session_resume: c.supports_session_resume === true,
      supports_workspace_only: c.supports_workspace_only === true,
    };
  }

  async launch(spec: LaunchSpec): Promise<AgentProcess> {
    const r = await this.call('POST', '/launch', spec);
    return this.follow(
      String(r.run_id),
      (r.pid as number | null) ?? null,
      (r.start_time as string | null) ?? null,
    );
  }

  async attach(row: ExecutorRow): Promise<AgentProcess | null> {
    if (!row.run_id) return null;
    try {
      await this.call('GET', `/runs/${row.run_id}`);
    } catch {
      return null;
    }
    return this.follow(row.run_id, row.pid, row.pid_start_time);
  }

  async isAlive(row: ExecutorRow) {
    if (!row.run_id) return false;
    try {
      return (await this.call('GET', `/runs/${row.run_id}`)).running === true;
    } catch {
      return false;
    }
  }

  /** Stops the row's run on the agent host if it still runs; the host itself is not Baton's to stop. */
  async release(row: ExecutorRow) {
    if (row.run_id && (await this.isAlive(row))) await this.call('POST', `/runs/${row.run_id}/stop`);
  }

  /**
   * The run as an agent process. Its output is read only once someone follows it (`onOutput`, `wait`): a command
   * that merely found the run (one noticing a dead driver) leaves it to the next driver and does not wait for it.
   */
  private follow(runId: string, pid: number | null, startTime: string | null): AgentProcess {
    const listeners: ((d: string) => void)[] = [];
    const early: string[] = [];
    const noticed: ((line: string) => void)[] = [];
    const emit = (d: string) => {
      if (listeners.length === 0) early.push(d);
      for (const l of listeners) l(d);
    };
    let exited: Promise<ExitStatus> | null = null;
    const start = () => (exited ??= this.read(runId, pid, emit, (line) => noticed.forEach((n) => n(line))));
    return {
      pid,
      startTime,
      runId,
      onOutput(cb) {
        listeners.push(cb);
        for (const d of early.splice(0)) cb(d);
        void start();
      },
      onNotice(cb) {
        noticed.push(cb);
      },
      wait: () => start(),
      stop: async () => {
        await this.call('POST', `/runs/${runId}/stop`).catch(() => undefined);
      },
    };
  }

  /**
   * Reads the run's events from an offset until its exit. A broken stream is opened again with backoff; the first
   * failure is said at once with the time Baton gives up, and a host that answers again is said too. A host that
   * answers without the run (it restarted) ends the run as `lost` at once: its output is gone, no retry brings it.
   */
  private async read(
    runId: string,
    pid: number | null,
    emit: (d: string) => void,
    notice: (line: string) => void,
  ): Promise<ExitStatus> {
    let offset = 0;
    let dropped = 0;
    let delay = 200;
    let failingSince: number | null = null;
    const note = (stderr: string | null) =>
      dropped === 0
        ? stderr
        : [
            stderr,
            `baton: the executor had dropped ${dropped} characters of this run's output before Baton read them (it keeps the last part of each run's output)`,
          ]
            .filter(Boolean)
            .join('\n');
    const where = `the executor ${this.endpoint}`;
    const agent = `its agent${pid ? ` (pid ${pid} on that host)` : ''}`;
    for (;;) {
      try {
        const path = `/runs/${runId}/events?offset=${offset}`;
        const res = await fetch(new URL(path, this.endpoint), {
          headers: this.headers(false),
          signal: this.closing.signal,
        });
        if (refusal(res.status)) {
          const data = (await res.json().catch(() => ({}))) as { error?: string };
          return {
            code: null,
            signal: 'lost',
            stderr: this.refused(res.status, path, data.error ?? '').message,
          };
        }
        if (res.status === 404)
          return {
            code: null,
            signal: 'lost',
            stderr: note(
              `${where} answers but no longer knows the run ${runId} (it restarted?): what ${agent} did after Baton lost it was not read, and it may still be running`,
            ),
          };
        if (!res.ok || !res.body)
          throw new BatonError(
            'unavailable',
            `the executor host answered ${res.status} for the run's events`,
          );
        if (failingSince !== null)
          notice(
            `${where} answers again after ${Math.round((Date.now() - failingSince) / 1000)} s: following run ${runId} from where Baton was`,
          );
        failingSince = null;
        delay = 200;
        let buf = '';
        const decoder = new TextDecoder();
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            const ev = JSON.parse(line) as {
              type: string;
              offset?: number;
              data?: string;
              first_kept?: number;
            } & ExitStatus;
            if (ev.type === 'truncated' && typeof ev.first_kept === 'number' && ev.first_kept > offset) {
              dropped += ev.first_kept - offset;
              offset = ev.first_kept;
            } else if (ev.type === 'output' && ev.data !== undefined) {
              const skip = offset - (ev.offset ?? 0);
              const fresh = skip > 0 ? ev.data.slice(skip) : ev.data;
              offset += fresh.length;
              if (fresh) emit(fresh);
            } else if (ev.type === 'exit')
              return { code: ev.code, signal: ev.signal, stderr: note(ev.stderr ?? null) };
          }
        }
        throw new BatonError('unavailable', 'the stream of the run ended before its exit');
      } catch (e) {
        if (this.closing.signal.aborted)
          return {
            code: null,
            signal: 'lost',
            stderr: note((this.closing.signal.reason as Error).message),
          };
        if (failingSince === null) {
          failingSince = Date.now();
          const until = new Date(failingSince + this.giveUpMs).toTimeString().slice(0, 8);
          notice(
            `lost contact with ${where} (${causeOf(e)}); ${agent} may still be working: retrying until ${until}`,
          );
        }
        if (Date.now() - failingSince > this.giveUpMs)
          return {
            code: null,
            signal: 'lost',
            stderr: note(
              `lost ${where}: no answer for ${Math.round(this.giveUpMs / 1000)} s, so what ${agent} did was not read, and it may still be running`,
            ),
          };
      }
      await sleep(delay);
      delay = Math.min(5000, delay * 2);
    }
  }
}

/** What broke a request, in a few words: the system's error code (ECONNREFUSED...) when there is one. */
function causeOf(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code && /^E[A-Z]+$/.test(cause.code) ? cause.code : null;
  return code ?? cause?.message ?? (e as Error).message;
}
