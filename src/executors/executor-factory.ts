import { executorCredential } from '../config/executor-token.js';
import type { ExecutorFactory, ExecutorRow } from '../service/runtime/runtime-ports.js';
import { DockerExecutor } from './docker/docker-executor.js';
import { DockerEngine } from './docker/engine.js';
import { LocalExecutor } from './local/local-executor.js';
import { RemoteExecutor } from './remote/remote-executor.js';

/** A remote executor with the token from BATON_EXECUTOR_TOKEN or `$BATON_HOME/executor-token`. */
export const remoteExecutor = (endpoint: string, env: NodeJS.ProcessEnv, home: string) =>
  new RemoteExecutor(endpoint, executorCredential(env, home));

/**
 * Executors by the runtime an executor row names (recovery, the heartbeat monitor, releasing a session): a Docker
 * row gets an executor bound to it, which finds its container by id, else by labels.
 */
export const executorFactory = (
  env: NodeJS.ProcessEnv,
  home: string,
  dockerImage: string | null = null,
  dockerEnv: readonly string[] = [],
): ExecutorFactory => ({
  forRow: (r) =>
    r.runtime === 'remote' && r.endpoint
      ? remoteExecutor(r.endpoint, env, home)
      : r.runtime === 'local'
        ? new LocalExecutor()
        : r.runtime === 'docker'
          ? new DockerExecutor(new DockerEngine(env), dockerImage, r, dockerEnv)
          : null,
});

/** The service's `releaseExecutor` port: what Baton created for a finished session goes, by the row's runtime. */
export const releaseByRuntime =
  (env: NodeJS.ProcessEnv, home: string) =>
  async (row: ExecutorRow): Promise<void> => {
    await executorFactory(env, home).forRow(row)?.release(row);
  };
