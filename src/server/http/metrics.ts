import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Series {
  labels: string;
  count: number;
  sum: number;
  buckets: number[];
}

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `${k}="${esc(v)}"`)
    .join(',');

/** The matched route pattern (`/api/workflows/:id/pause`), never the raw path: bounded label values. */
function routeLabel(c: Context): string {
  const path = c.req.path;
  if (
    !path.startsWith('/api/') &&
    !['/ws', '/metrics', '/healthz', '/readyz', '/openapi.json'].includes(path)
  )
    return 'static';
  const routes = matchedRoutes(c).filter((r) => r.method !== 'ALL');
  return routes[routes.length - 1]?.path ?? 'unmatched';
}

/** Prometheus metrics in the text exposition format, kept by hand (no client library needed for a few series). */
export class Metrics {
  private readonly requests = new Map<string, Series>();
  private readonly events = new Map<string, number>();
  /** Gauges read at scrape time: name -> (help, sampler returning label sets and values). */
  private readonly gauges: {
    name: string;
    help: string;
    sample: () => Promise<[Record<string, string>, number][]>;
  }[] = [];

  observe(method: string, route: string, status: number, seconds: number) {
    const key = labels({ method, route, status: String(status) });
    let s = this.requests.get(key);
    if (!s) {
      s = { labels: key, count: 0, sum: 0, buckets: buckets.map(() => 0) };
      this.requests.set(key, s);
    }
    s.count++;
    s.sum += seconds;
    buckets.forEach((b, i) => {
      if (seconds <= b) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    });
  }

  eventAppended(type: string) {
    this.events.set(type, (this.events.get(type) ?? 0) + 1);
  }

  gauge(name: string, help: string, sample: () => Promise<[Record<string, string>, number][]>) {
    this.gauges.push({ name, help, sample });
  }

  /** Times every request, labelled by the matched route pattern (not the raw path: bounded cardinality). */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const start = performance.now();
      await next();
      this.observe(c.req.method, routeLabel(c), c.res.status, (performance.now() - start) / 1000);
    };
  }

  async render(): Promise<string> {
    const out: string[] = [
      '# HELP baton_http_requests_total HTTP requests by method, route and status.',
      '# TYPE baton_http_requests_total counter',
    ];
    for (const s of this.requests.values()) out.push(`baton_http_requests_total{${s.labels}} ${s.count}`);
    out.push(
      '# HELP baton_http_request_duration_seconds HTTP request latency by method, route and status.',
      '# TYPE baton_http_request_duration_seconds histogram',
    );
    for (const s of this.requests.values()) {
      buckets.forEach((b, i) =>
        out.push(`baton_http_request_duration_seconds_bucket{${s.labels},le="${b}"} ${s.buckets[i]}`),
      );
      out.push(`baton_http_request_duration_seconds_bucket{${s.labels},le="+Inf"} ${s.count}`);
      out.push(`baton_http_request_duration_seconds_sum{${s.labels}} ${s.sum}`);
      out.push(`baton_http_request_duration_seconds_count{${s.labels}} ${s.count}`);
    }
    out.push(
      '# HELP baton_events_appended_total Events appended to the store (seen by the server since it started), by type.',
      '# TYPE baton_events_appended_total counter',
    );
    for (const [type, n] of this.events) out.push(`baton_events_appended_total{${labels({ type })}} ${n}`);
    for (const g of this.gauges) {
      out.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`);
      for (const [l, v] of await g.sample())
        out.push(`${g.name}${Object.keys(l).length ? `{${labels(l)}}` : ''} ${v}`);
    }
    return `${out.join('\n')}\n`;
  }
}
