import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/raw-http.js';

// `baton run` on an agent host whose capabilities cannot be read takes it as one that cannot resume the agent's own
// session (after a crash, a fresh session with the briefing): it says so with the error, never in silence.

const daemons: DaemonProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
});

/** A proxy in front of the agent host that answers GET /capabilities with a 503, and passes everything else on. */
async function capabilitiesDown(target: string): Promise<string> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    if (req.url === '/capabilities') {
      res.writeHead(503, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error: 'capabilities down for maintenance' }));
    }
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('baton run on an agent host whose capabilities cannot be read', () => {
  it('says so, with the error and what it assumed, and records the session as one that cannot resume', async () => {
    const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await ws.create()).code).toBe(0);
    const daemon = await startDaemonProcess(ws.env.BATON_HOME!, { env: ws.env });
    daemons.push(daemon);
    const url = await capabilitiesDown(daemon.url);
    const run = await ws.said([
      'run',
      '--agent',
      'claude-code',
      '--executor',
      'remote',
      '--executor-url',
      url,
      '--max-tasks',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `baton run: the remote executor's capabilities could not be read (the executor ${url} answered /capabilities with 503 capabilities down for maintenance): assumed it cannot resume the agent's own session, so after a crash session 1 goes on in a fresh agent session with the briefing`,
    );
    const rows = (await ws.cli(['executors', 'list'])).json<{ supports_session_resume: boolean }[]>();
    expect(rows.map((r) => r.supports_session_resume)).toEqual([false]);
  });
});
