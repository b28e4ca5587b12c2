import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { isPostgresUrl } from '../../core/database-url.js';
import { packageRoot as installedRoot } from '../../config/package-info.js';
import type Docker from 'dockerode';
import type { ExecutorRow } from '../../service/runtime/runtime-ports.js';

/** The labels Baton puts on each container it creates; only containers carrying `baton.created_by=baton` are its. */
export const LABEL = {
  createdBy: 'baton.created_by',
  sessionId: 'baton.session_id',
  workflowId: 'baton.workflow_id',
  executorId: 'baton.executor_id',
} as const;
export const CREATED_BY = 'baton';

/** The session id of the session-resumption design: `<workflow id>#<session number>`. */
export const sessionIdOf = (row: Pick<ExecutorRow, 'workflow_id' | 'session_number'>) =>
  `${row.workflow_id}#${row.session_number}`;

export const containerNameOf = (row: Pick<ExecutorRow, 'id'>) => `baton-${row.id}`;

export const labelsOf = (row: ExecutorRow): Record<string, string> => ({
  [LABEL.createdBy]: CREATED_BY,
  [LABEL.sessionId]: sessionIdOf(row),
  [LABEL.workflowId]: row.workflow_id,
  [LABEL.executorId]: row.id,
});

/** Whether Baton created the container for this executor row (and so may use and remove it). */
export const isOurs = (labels: Record<string, string>, executorId: string) =>
  labels[LABEL.createdBy] === CREATED_BY && labels[LABEL.executorId] === executorId;

/** The variable carrying the agent host's token inside the container (read back from it on recovery). */
export const TOKEN_VARIABLE = 'BATON_EXECUTOR_TOKEN';

/** This installed Baton package: its `bin/baton.js` runs the agent host inside the container. */
export function packageRoot(): string {
  return realpathSync(installedRoot());
}

/**
 * What to mount so Baton's code and its dependencies resolve inside the container: the package itself, or, when
 * it is installed inside a `node_modules` folder (its dependencies hoisted beside it), that whole folder.
 */
export function codeMount(root: string): string {
  const at = root.indexOf(`${sep}node_modules${sep}`);
  return at >= 0 ? root.slice(0, at + `${sep}node_modules`.length) : root;
}

/** How the prompt names Baton in the container: the image's node with the mounted package (whatever the PATH). */
export const containerBatonCommand = () => ({
  program: '/usr/bin/node',
  args: [join(packageRoot(), 'bin', 'baton.js')],
});

/**
 * The folders of the store the agent is told to use (its BATON_HOME, the folder of a SQLite BATON_DATABASE_URL),
 * mounted read-write at the same paths so what it records reaches the same store; a PostgreSQL URL needs none.
 */
export function storeMounts(agentEnv: Record<string, string>): string[] {
  const dirs = new Set<string>();
  const home = agentEnv.BATON_HOME;
  if (home && isAbsolute(home)) dirs.add(home);
  const db = agentEnv.BATON_DATABASE_URL;
  if (db && !isPostgresUrl(db) && isAbsolute(db)) dirs.add(dirname(db));
  return [...dirs].filter((d) => ![...dirs].some((o) => o !== d && d.startsWith(o + sep)));
}

/**
 * The container of one Baton session: its agent host (`baton executor serve`, on a free loopback port of the
 * host's network) run by the image's `/usr/bin/node` from Baton's own package mounted read-only, the worktree and
 * Baton's store mounted read-write at the same paths, as the user running Baton (files the agent writes stay the
 * user's).
 */
export function containerOptions(input: {
  row: ExecutorRow;
  image: string;
  token: string;
  user: string | null;
  /** Folders of Baton's store mounted read-write at the same paths (`storeMounts`). */
  stores?: readonly string[];
  /** `NAME=VALUE` variables for the agent (`--docker-env`); Baton's own come after and win. */
  env?: readonly string[];
}): Docker.ContainerCreateOptions {
  const { row } = input;
  const root = packageRoot();
  const code = codeMount(root);
  return {
    name: containerNameOf(row),
    Image: input.image,
    Cmd: [
      '/usr/bin/node',
      join(root, 'bin', 'baton.js'),
      '--json',
      'executor',
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
    ],
    Env: [
      ...(input.env ?? []),
      `${TOKEN_VARIABLE}=${input.token}`,
      'BATON_HOME=/tmp/baton-executor',
      'HOME=/tmp',
    ],
    Labels: labelsOf(row),
    User: input.user ?? undefined,
    WorkingDir: row.workspace_path,
    Tty: false,
    HostConfig: {
      NetworkMode: 'host',
      Init: true,
      Mounts: [
        { Type: 'bind', Source: code, Target: code, ReadOnly: true },
        { Type: 'bind', Source: row.workspace_path, Target: row.workspace_path, ReadOnly: false },
        ...(input.stores ?? [])
          .filter((dir) => dir !== row.workspace_path)
          .map((dir) => ({ Type: 'bind' as const, Source: dir, Target: dir, ReadOnly: false })),
      ],
      Tmpfs: { '/tmp': 'rw,nosuid,nodev,mode=1777' },
    },
  };
}
