import { executorCredential } from '../config/executor-token.js';
import type { ExecutorFactory } from '../service/runtime/index.js';
import { LocalExecutor } from './local/local-executor.js';
import { RemoteExecutor } from './remote/remote-executor.js';

/** A remote executor with the token from BATON_EXECUTOR_TOKEN or `$BATON_HOME/executor-token`. */
export const remoteExecutor = (endpoint: string, env: NodeJS.ProcessEnv, home: string) =>
  new RemoteExecutor(endpoint, executorCredential(env, home));

/** Executors by the runtime an executor row names (recovery, the heartbeat monitor, the crash watch). */
export const executorFactory = (env: NodeJS.ProcessEnv, home: string): ExecutorFactory => ({
  forRow: (r) =>
    r.runtime === 'remote' && r.endpoint
      ? remoteExecutor(r.endpoint, env, home)
      : r.runtime === 'local'
        ? new LocalExecutor()
        : null,
});
