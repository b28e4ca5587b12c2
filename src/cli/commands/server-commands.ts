import type { Command } from 'commander';
import { hostname } from 'node:os';
import { settingReader } from '../../config/settings.js';
import { ensureToken, rotateTokenFile, tokenPath } from '../../config/token-file.js';
import { BATON_ACTOR, branchInWords, invalidInput } from '../../core/index.js';
import { serverToken } from '../../open-baton.js';
import { action, workflowOption } from '../action.js';
import { parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';
import { serveRuntime, type ServeRuntimeFlags } from '../serve-runtime.js';
import { markServing, serversGoneWords } from '../serving-mark.js';
import type { Worker } from '../../service/runtime/index.js';
import { makeWorker, workerLine, workerOptions, type WorkerFlags } from '../worker-runtime.js';
import { agentOptions } from '../agent-runs.js';
import { resumableWords, resumeReasonWords } from '../resumable-words.js';
import { takenRef } from '../taken-workflow.js';
import { identityAt } from '../../git/git.js';

type ServeFlags = ServeRuntimeFlags &
  WorkerFlags & {
    host?: string;
    port?: string;
    maxBody?: string;
    maxFrame?: string;
    allowHost?: string;
    allowOrigin?: string;
    auth?: boolean;
  };

/** `baton serve`, `baton token`, and `baton session-status`. */
export function registerServerCommands(program: Command, rt: Runtime) {
  const serve = program
    .command('serve')
    .description('serve the REST + WebSocket API and the dashboard (default http://127.0.0.1:7420)')
    .option('--host <host>', 'address to bind (env BATON_HOST, default 127.0.0.1)')
    .option('--port <port>', 'port, 0 for any free one (env BATON_PORT, default 7420)')
    .option('--max-body <bytes>', 'largest request body (env BATON_MAX_BODY, default 1048576)')
    .option(
      '--max-frame <bytes>',
      'largest WebSocket frame from a client (env BATON_MAX_FRAME, default 1048576)',
    )
    .option(
      '--allow-host <names>',
      'extra Host names to answer to, e.g. behind a reverse proxy: name or name:port, comma separated (env BATON_ALLOWED_HOSTS)',
    )
    .option(
      '--allow-origin <origins>',
      'extra origins allowed to change state and open /ws, e.g. https://baton.example.com (env BATON_ALLOWED_ORIGINS)',
    )
    .option('--no-auth', 'serve without a bearer token (loopback addresses only; env BATON_NO_AUTH=1)');
  workerOptions(agentOptions(serve))
    .option(
      '--worker',
      'also run queued work like `baton worker` (with its --concurrency, --worktree-root, --label, --lease-ttl)',
    )
    .option(
      '--auto-resume <policy>',
      'sessions startup recovery resumes: none | waiting | all (env BATON_AUTO_RESUME, default waiting)',
    )
    .option(
      '--heartbeat-timeout <duration>',
      'interrupt a running session silent this long (env BATON_HEARTBEAT_TIMEOUT, default 60s)',
    )
    .action(async (o: ServeFlags, cmd: Command) => {
      const g = rt.globals(cmd);
      const settings = rt.settings(g);
      // Loaded on demand: the other commands never pay for the server's modules.
      const { resolveServeOptions, startServer } = await import('../../server/index.js');
      const { readBeforeContext, goneAgentsOf, watchAgents } =
        await import('../../integrations/hooks/agent-watch.js');
      const opts = resolveServeOptions(o, rt.env, settings);
      const service = await rt.openService(settings);
      const log = (l: string) => rt.io.err(`baton serve: ${l}\n`);
      // a server of this home that was killed or crashed is said first: the recovery said next is what it left
      for (const gone of serversGoneWords(settings.home)) log(gone);
      let server;
      let agents;
      let worker: Worker | null;
      try {
        // Checked before the server starts: a worker that cannot be told what it may take is a usage error.
        worker = o.worker
          ? makeWorker(service, settings, o, rt.env, (e) => {
              const line = workerLine(e, o.verbose === true);
              if (line) log(`worker: ${line}`);
            })
          : null;
        agents = serveRuntime(service, settings, o, rt.env, log);
        const runtime = agents;
        server = await startServer(service, {
          ...opts,
          home: settings.home,
          beforeReady: async () => void (await runtime.recover()),
          // the status says what this machine's hooks saw of the agents, as `baton status` does (the sessions table,
          // the agents gone alone)
          watch: {
            status: (s) => watchAgents(s, settings.home),
            goneAgents: (w) => goneAgentsOf(w, settings.home),
          },
          // and the context (the dashboard's panel) reads first what those hooks left unread, as `baton context` does
          readFirst: async (client, ref) => {
            const { status, read } = await readBeforeContext(client, ref, settings.home);
            return { workflow_id: status.workflow.id, read };
          },
          // whose workflows are the person's on a database a team shares: the git identity where the server runs, as
          // the CLI's own commands tell theirs from a teammate's
          you: () => identityAt(rt.cwd),
        });
      } catch (e) {
        await service.close();
        throw e;
      }
      agents.start(worker);
      // the worker's runs are Baton's, as `baton worker`'s are (the server serves a person's requests as `user`)
      const working = worker ? service.runner.actingAs(BATON_ACTOR, () => worker.run()) : undefined;
      // listened for before the server says it is up: a stop sent as soon as it is read still stops it cleanly
      const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
        // the terminal closed: stop as for SIGTERM (the agents lead their own process groups and never get it)
        process.once('SIGHUP', () => resolve('SIGTERM'));
      });
      const unmark = markServing(
        settings.home,
        { url: server.url, store: service.store.location },
        new Date().toISOString(),
      );
      rt.io.out(
        g.json
          ? JSON.stringify({
              url: server.url,
              store: service.store.location,
              token_file: server.token ? tokenPath(settings.home) : null,
            })
          : [
              ...listeningLines(server),
              `  store ${service.store.location}`,
              server.token
                ? `  token: print it with \`baton token\` (${tokenPath(settings.home)}); the API, OpenAPI and live events ask for it (Authorization: Bearer <token>)`
                : '  no token (--no-auth): anyone on this machine can use the API',
            ].join('\n'),
      );
      const signal = await stopSignal;
      if (worker) {
        // The worker's workflows pause at their task boundary and are released; a second signal stops them now.
        const w = worker;
        const again = (sig: NodeJS.Signals) => void w.stop(sig);
        process.on('SIGINT', again);
        process.on('SIGTERM', again);
        await w.stop(signal);
        await working;
      }
      await agents.stop();
      await server.close();
      await rt.flushMirror();
      await service.close();
      unmark();
      // said where the start was said (stdout), unless that was JSON
      if (g.json !== true) rt.io.out(`baton serve stopped (${signal})`);
    });

  program
    .command('token')
    .description("print the server's bearer token (created under BATON_HOME on first use, mode 0600)")
    .option(
      '--rotate',
      'replace it with a new one: a running server takes the new one at its next request and refuses the old one',
    )
    .action(async (o: { rotate?: boolean }, cmd: Command) => {
      const g = rt.globals(cmd);
      const settings = rt.settings(g);
      const home = settings.home;
      const server = settingReader({ server: g.server }, rt.env, settings).text('server');
      if (server && o.rotate)
        throw invalidInput(
          `a token is rotated where its server runs (its BATON_HOME), not through it: this shell names the server ${server} (BATON_URL or --server); on the server's machine, run \`BATON_URL= baton token --rotate\` with the server's BATON_HOME, then set BATON_TOKEN to what it prints where clients run`,
        );
      if (o.rotate) {
        const token = rotateTokenFile(tokenPath(home));
        rt.io.out(g.json ? JSON.stringify({ token, path: tokenPath(home), rotated: true }) : token);
        rt.io.err(
          `baton: a new token is in ${tokenPath(home)}: a \`baton serve\` of this BATON_HOME takes it at its next request and refuses the old one (WebSocket connections open now stay open); give it to every client (BATON_TOKEN) and to the dashboard when it asks`,
        );
        return;
      }
      if (server) {
        // A client of a server: its token is the server's, made where the server runs; one made here is refused.
        const sent = serverToken(settings, rt.env);
        if (!sent.token)
          throw invalidInput(
            `no token to send to the server ${server}: BATON_TOKEN is not set, and ${tokenPath(home)} does not exist; the server made its token where it runs: run \`baton token\` where the server runs (with its BATON_HOME), and set BATON_TOKEN here to what it prints`,
          );
        rt.io.out(g.json ? JSON.stringify({ token: sent.token, from: sent.from }) : sent.token);
        return;
      }
      const token = ensureToken(home);
      rt.io.out(g.json ? JSON.stringify({ token, path: tokenPath(home) }) : token);
    });

  program
    .command('session-status')
    .description(
      'whether an agent is running the session, whether it can and needs to be resumed and why, its worktree',
    )
    .option(...workflowOption)
    .option('--session <n>', 'a session number (default: the latest)')
    .action(
      action(rt, async ({ client, print, rt }, o: { workflow?: string; session?: string }) => {
        const n = o.session ? parseNumber(o.session, '--session', { int: true, min: 1 }) : undefined;
        const s = await client.sessionStatus(await takenRef(rt, client, o.workflow), n);
        print(s, () =>
          [
            `${s.session_id}  ${s.state}${s.task_id ? ` (task ${s.task_id})` : ''}`,
            `  agent running: ${s.agent_running_note}   resumable: ${resumableWords({ resumable: s.is_resumable, continued_by: s.continued_by, status: s.workflow_status })}   needs resume: ${s.needs_resume ? 'yes' : 'no'}${s.resume_reason ? ` (${resumeReasonWords[s.resume_reason]})` : ''}`,
            `  executor: ${s.executor_status ?? 'none'}   worktree: ${s.worktree_path}${s.worktree_branch ? ` (${branchInWords(s.worktree_branch)})` : ''}`,
            `  tasks: ${s.tasks_done}/${s.tasks_total} done this session`,
          ].join('\n'),
        );
      }),
    );
}

/**
 * Where the server listens, and the addresses to open: on every address of the machine (0.0.0.0, ::) those are
 * this machine's own (127.0.0.1 here, its name from elsewhere), never the wildcard itself.
 */
function listeningLines(server: { url: string; host: string; port: number }): string[] {
  const wildcard = server.host === '0.0.0.0' || server.host === '::';
  const url = wildcard ? `http://127.0.0.1:${server.port}` : server.url;
  return [
    wildcard
      ? `baton serve: listening on every address of this machine, port ${server.port} (from another machine: http://${hostname()}:${server.port}, over plain HTTP: put TLS in front, docs/security.md)`
      : `baton serve: listening on ${server.url}`,
    `  dashboard ${url}/   API ${url}/api   OpenAPI ${url}/openapi.json   live ${url.replace(/^http/, 'ws')}/ws`,
  ];
}
