import { statSync } from 'node:fs';
import { BatonError, invalidInput, type ExecutorChoice } from '../../core/index.js';
import type {
  AgentProcess,
  Executor,
  ExecutorRow,
  ExitStatus,
  LaunchSpec,
} from '../../service/runtime/runtime-ports.js';
import { livenessUnknown, isLivenessUnknown } from '../../service/runtime/liveness-unknown.js';
import { connectTo, startAgentHost, stoppedReason, type Placement } from './agent-host.js';
import {
  containerBatonCommand,
  isOurs,
  LABEL,
  sessionIdOf,
  storeMounts,
  CREATED_BY,
} from './container-spec.js';
import type { ContainerState, DockerEngine } from './engine.js';

const short = (id: string) => id.slice(0, 12);

/** A container found gone or stopped answers null; an engine that cannot be reached is no answer, and is thrown. */
const orNull = (e: unknown): null => {
  if (isLivenessUnknown(e)) throw e;
  return null;
};

/** The user Baton runs as, so files the agent writes in the worktree stay that user's. */
const currentUser = () =>
  typeof process.getuid === 'function' && typeof process.getgid === 'function'
    ? `${process.getuid()}:${process.getgid()}`
    : null;

/** The worktree must exist before anything is created: Docker would otherwise make an empty one as root. */
export function checkWorkspace(path: string): void {
  let dir: boolean;
  try {
    dir = statSync(path).isDirectory();
  } catch {
    dir = false;
  }
  if (!dir)
    throw invalidInput(
      `the worktree ${path} does not exist (or is not a directory): the Docker executor mounts it into the container at the same path. Restore it there (e.g. \`git worktree add ${path}\`), or create a workflow on an existing worktree`,
      { worktree: path },
    );
}

/**
 * The Docker executor: each Baton session's agent host (`baton executor serve`) runs in its own container,
 * labelled with Baton's ids, the worktree mounted at the same path, reached over HTTP with the container's own
 * token like a remote executor. Containers outlive `baton run` and `baton serve`; recovery finds them by id, else by
 * labels. `release` removes what Baton created for a session, and nothing else.
 *
 * Unbound (`baton run --executor docker`) it launches for whatever row it is given; bound to a row (recovery,
 * `executorFactory`), `health()` checks that row's container and agent host.
 */
export class DockerExecutor implements Executor {
  readonly runtime = 'docker' as const;
  private readonly placed = new Map<string, Placement>();
  private imageChecked = false;

  constructor(
    private readonly engine: DockerEngine,
    private readonly image: string | null,
    private readonly bound: ExecutorRow | null = null,
    /** `NAME=VALUE` variables given to the agent in the containers this executor creates (`--docker-env`). */
    private readonly containerEnv: readonly string[] = [],
    private readonly user: string | null = currentUser(),
  ) {}

  get batonCommand(): { program: string; args: string[] } {
    return containerBatonCommand();
  }

  get choice(): ExecutorChoice | null {
    return this.image ? { executor: 'docker', docker_image: this.image } : null;
  }

  get endpoint(): string | null {
    if (!this.bound) return null;
    return this.placed.get(this.bound.id)?.endpoint ?? this.bound.endpoint;
  }

  /** Where the row's agent runs now (container id and agent host URL), once known. */
  placement(rowId: string): { container_id: string; endpoint: string } | null {
    const p = this.placed.get(rowId);
    return p ? { container_id: p.containerId, endpoint: p.endpoint } : null;
  }

  /** Before a run: the engine answers, the image is there, the worktree exists. Creates nothing. */
  async preflight(workspace: string): Promise<void> {
    await this.engine.ping();
    if (!this.image)
      throw invalidInput(
        '--executor docker needs an image: --docker-image IMAGE (variable BATON_DOCKER_IMAGE, config docker_image)',
      );
    if (!this.imageChecked && !(await this.engine.hasImage(this.image)))
      throw invalidInput(
        `the image ${this.image} is not in the Docker engine at ${this.engine.address.shown}: build, import or pull it there first (\`docker build -t ${this.image} .\`, \`docker pull ${this.image}\`); Baton never pulls images`,
        { image: this.image },
      );
    this.imageChecked = true;
    checkWorkspace(workspace);
  }

  async health(): Promise<boolean> {
    if (!this.bound) {
      await this.engine.ping();
      return true;
    }
    return (await this.locateRunning(this.bound)).remote.health();
  }

  async capabilities() {
    const p = this.bound ? this.placed.get(this.bound.id) : undefined;
    if (p) return p.remote.capabilities();
    // What the agent host in every container reports (`GET /capabilities`).
    return { supports_session_resume: true, supports_workspace_only: true };
  }

  async launch(spec: LaunchSpec, row?: ExecutorRow): Promise<AgentProcess> {
    if (!row) throw new BatonError('internal', 'the Docker executor launches for an executor row');
    const p = await this.ensure(row, spec.cwd, storeMounts(spec.env));
    return this.watch(await p.remote.launch(spec), p);
  }

  async attach(row: ExecutorRow): Promise<AgentProcess | null> {
    const p = await this.locateRunning(row).catch(orNull);
    const proc = p ? await p.remote.attach(row) : null;
    return p && proc ? this.watch(proc, p) : null;
  }

  /** False when the container is gone or stopped; throws `livenessUnknown` when the engine cannot be reached. */
  async isAlive(row: ExecutorRow): Promise<boolean> {
    const p = await this.locateRunning(row).catch(orNull);
    return p ? p.remote.isAlive(row) : false;
  }

  /** The session is over: removes the containers Baton created for this row (its agent stops with them). */
  async release(row: ExecutorRow): Promise<void> {
    const ids = new Set(await this.ours(row));
    for (const id of ids) await this.engine.remove(id);
    this.placed.delete(row.id);
  }

  /** Containers Baton created for the row: by its id, and by its labels. */
  private async ours(row: ExecutorRow): Promise<string[]> {
    const ids = await this.engine.findByLabels({ [LABEL.createdBy]: CREATED_BY, [LABEL.executorId]: row.id });
    if (row.container_id && !ids.includes(row.container_id)) {
      const c = await this.engine.inspect(row.container_id);
      if (c && isOurs(c.labels, row.id)) ids.push(c.id);
    }
    return ids;
  }

  /** The row's container: by `container_id`, else by its labels; null when the engine has none. */
  private async locate(row: ExecutorRow): Promise<ContainerState | null> {
    if (row.container_id) {
      const c = await this.engine.inspect(row.container_id);
      if (c && isOurs(c.labels, row.id)) return c;
    }
    const ids = await this.engine.findByLabels({ [LABEL.createdBy]: CREATED_BY, [LABEL.executorId]: row.id });
    if (ids.length > 1)
      throw new BatonError(
        'ambiguous',
        `${ids.length} containers carry the label ${LABEL.executorId}=${row.id} (${ids.map(short).join(', ')}): remove the ones that are not this session's (\`docker rm -f <id>\`)`,
      );
    return ids[0] ? this.engine.inspect(ids[0]) : null;
  }

  /**
   * The row's container, running, connected to its agent host; else an error that says what happened. An engine
   * this process cannot reach says nothing about the container: `livenessUnknown`.
   */
  private async locateRunning(row: ExecutorRow): Promise<Placement> {
    await this.engine.ping().catch((e: Error) => {
      throw livenessUnknown(e.message, { container_id: row.container_id });
    });
    const c = await this.locate(row);
    if (!c)
      throw new BatonError(
        'not_found',
        `the container of executor ${row.id} (session ${sessionIdOf(row)}) is gone: ${row.container_id ? `container ${short(row.container_id)} was removed` : 'no container carries its labels'}; its agent is lost. Resume the workflow to start a new session (\`baton resume\`, then \`baton run --executor docker\`)`,
        { container_id: row.container_id },
      );
    if (!c.running)
      throw new BatonError(
        'unavailable',
        await stoppedReason(this.engine, c, `the agent host of executor ${row.id} stopped`),
        { container_id: c.id, exit_code: c.exitCode },
      );
    const p = await connectTo(this.engine, c);
    this.placed.set(row.id, p);
    return p;
  }

  /** The row's running container (reused by the session's next task), or a new one. */
  private async ensure(row: ExecutorRow, cwd: string, stores: readonly string[]): Promise<Placement> {
    checkWorkspace(row.workspace_path);
    if (cwd !== row.workspace_path) checkWorkspace(cwd);
    const known = this.placed.get(row.id);
    if (known && (await this.engine.inspect(known.containerId))?.running) return known;
    await this.engine.ping();
    const existing = await this.locate(row);
    if (existing?.running) {
      const p = await connectTo(this.engine, existing);
      if (await p.remote.health()) {
        this.placed.set(row.id, p);
        return p;
      }
    }
    if (existing) await this.engine.remove(existing.id);
    const image = this.image ?? existing?.image ?? null;
    if (!image)
      throw invalidInput(
        '--executor docker needs an image: --docker-image IMAGE (variable BATON_DOCKER_IMAGE, config docker_image)',
      );
    if (this.image) await this.preflight(row.workspace_path);
    await this.refuseCollisions(row);
    const p = await startAgentHost(this.engine, {
      row,
      image,
      user: this.user,
      stores,
      env: this.containerEnv,
    });
    this.placed.set(row.id, p);
    return p;
  }

  /** Another container already labelled with this session (not created by Baton for this executor) is refused. */
  private async refuseCollisions(row: ExecutorRow): Promise<void> {
    const sid = sessionIdOf(row);
    for (const id of await this.engine.findByLabels({ [LABEL.sessionId]: sid })) {
      const c = await this.engine.inspect(id);
      if (!c || isOurs(c.labels, row.id)) continue;
      throw new BatonError(
        'conflict',
        `the container ${c.name} (${short(c.id)}) already carries the label ${LABEL.sessionId}=${sid}, and Baton did not create it for executor ${row.id}: remove it (\`docker rm -f ${c.name}\`) or take the label off, then run again`,
        { container_id: c.id, session_id: sid },
      );
    }
  }

  /**
   * The agent process, watched through the container too: if the container stops or is removed while the agent
   * runs, the run ends at once with the container's exit code and last output (instead of waiting for the
   * agent host's stream to give up). Watched only once someone follows the run, as a remote run is read.
   */
  private watch(proc: AgentProcess, p: Placement): AgentProcess {
    let exited: Promise<ExitStatus> | null = null;
    const follow = () => {
      const ac = new AbortController();
      const containerStopped = this.engine.waitStopped(p.containerId, ac.signal).then(
        async (): Promise<ExitStatus> => {
          const c = await this.engine.inspect(p.containerId).catch(() => null);
          const reason =
            c && c.status !== 'removing'
              ? await stoppedReason(this.engine, c, 'the container stopped while the agent ran')
              : `the container ${p.name} (${short(p.containerId)}) was removed while the agent ran`;
          p.remote.close(reason);
          return { code: null, signal: 'container_stopped', stderr: reason };
        },
        () => new Promise<ExitStatus>(() => undefined),
      );
      return Promise.race([proc.wait(), containerStopped])
        .then((e) =>
          e.code === 127 && /cannot run/.test(e.stderr ?? '')
            ? {
                ...e,
                stderr: `${e.stderr}\n(inside the container of image ${p.image}: the agent's executable must be in the image, or in the worktree, which is mounted at the same path)`,
              }
            : e,
        )
        .finally(() => ac.abort());
    };
    return {
      pid: proc.pid,
      startTime: proc.startTime,
      runId: proc.runId,
      placement: { container_id: p.containerId, endpoint: p.endpoint },
      onOutput: (cb) => {
        proc.onOutput(cb);
        exited ??= follow();
      },
      onNotice: (cb) => proc.onNotice?.(cb),
      wait: () => (exited ??= follow()),
      stop: () => proc.stop(),
    };
  }
}
