import type {
  AgentProcess,
  Executor,
  ExecutorRow,
  ExitStatus,
  LaunchSpec,
} from '../../service/runtime/runtime-ports.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A remote agent host (`baton executor serve`). Its agents outlive the Baton server; the event stream is read
 * from an offset, and a broken connection is re-opened with backoff (0.2 s doubling to 5 s, for up to `giveUpMs`).
 */
export class RemoteExecutor implements Executor {
  readonly runtime = 'remote' as const;

  constructor(
    readonly endpoint: string,
    private readonly token: string | null = null,
    private readonly giveUpMs = 60_000,
  ) {}

  private async call(method: string, path: string, body?: unknown) {
    const res = await fetch(new URL(path, this.endpoint), {
      method,
      headers: {
        'content-type': 'application/json',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${this.endpoint}${path}: ${res.status} ${String(data.error ?? '')}`);
    return data;
  }

  async health() {
    for (let delay = 200, tried = 0; tried < 5; tried++, delay *= 2) {
      try {
        return (await this.call('GET', '/health')).ok === true;
      } catch {
        await sleep(delay);
      }
    }
    return false;
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

  private follow(runId: string, pid: number | null, startTime: string | null): AgentProcess {
    const listeners: ((d: string) => void)[] = [];
    const early: string[] = [];
    const emit = (d: string) => {
      if (listeners.length === 0) early.push(d);
      for (const l of listeners) l(d);
    };
    const exited = (async (): Promise<ExitStatus> => {
      let offset = 0;
      let delay = 200;
      let failingSince: number | null = null;
      for (;;) {
        try {
          const res = await fetch(new URL(`/runs/${runId}/events?offset=${offset}`, this.endpoint), {
            headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
          });
          if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
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
              const ev = JSON.parse(line) as { type: string; offset?: number; data?: string } & ExitStatus;
              if (ev.type === 'output' && ev.data !== undefined) {
                const skip = offset - (ev.offset ?? 0);
                const fresh = skip > 0 ? ev.data.slice(skip) : ev.data;
                offset += fresh.length;
                if (fresh) emit(fresh);
              } else if (ev.type === 'exit')
                return { code: ev.code, signal: ev.signal, stderr: ev.stderr ?? null };
            }
          }
        } catch {
          failingSince ??= Date.now();
          if (Date.now() - failingSince > this.giveUpMs)
            return { code: null, signal: 'lost', stderr: `lost the executor ${this.endpoint}` };
        }
        await sleep(delay);
        delay = Math.min(5000, delay * 2);
      }
    })();
    return {
      pid,
      startTime,
      runId,
      onOutput(cb) {
        listeners.push(cb);
        for (const d of early.splice(0)) cb(d);
      },
      wait: () => exited,
      stop: async () => {
        await this.call('POST', `/runs/${runId}/stop`).catch(() => undefined);
      },
    };
  }
}
