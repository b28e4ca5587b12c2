import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { statSync } from 'node:fs';
import { invalidInput, type WatchedWorkflow } from '../../core/index.js';
import type { BatonClient, Ref } from '../../client/baton-client.js';
import type { StatusView } from '../../service/index.js';
import {
  ErrorResponse,
  type GoneAgent,
  type NotReadTranscript,
  type UnreadTranscript,
} from './response-schemas.js';
import { AbsolutePath, CwdHeaders, Id } from './request-schemas.js';
import { identityOf } from '../http/identity-header.js';

export type Api = OpenAPIHono;

/**
 * What the hooks of the server's machine saw of a workflow's agents beyond its log (the agents gone without a
 * SessionEnd, the transcripts not read yet), as `baton status` reads it; given by the edge that starts the server,
 * which reaches the hooks' files (src/integrations/hooks/agent-watch.ts).
 */
export interface AgentWatch {
  /** All of it, for a workflow's status. */
  status: (status: StatusView) => {
    gone_agents: z.infer<typeof GoneAgent>[];
    unread_transcripts: z.infer<typeof UnreadTranscript>[];
    transcripts_not_read: z.infer<typeof NotReadTranscript>[];
  };
  /**
   * The agents gone alone, for each row of the sessions table: the Workflows page asks it of every workflow at each
   * refresh, so no transcript is looked at for it.
   */
  goneAgents: (w: WatchedWorkflow) => z.infer<typeof GoneAgent>[];
}

/**
 * Reads what a workflow's transcripts on the server's machine gained with no agent at work to read it, before its
 * context is compiled, as `baton context` does; given by the edge that starts the server
 * (`readBeforeContext` of src/integrations/hooks/agent-watch.ts). Gives the workflow read and what was read, in words.
 */
export type ReadBeforeContext = (
  client: BatonClient,
  ref: Ref,
) => Promise<{ workflow_id: string; read: string[] }>;

/** What route groups get: the app to register on and the client every route calls (the CLI's interface). */
export interface RouteDeps {
  app: Api;
  client: BatonClient;
  /** Unset (a server no edge gave one): nothing is said of the agents beyond the log. */
  watch?: AgentWatch;
  /** Unset: the context is compiled from what the log holds, no transcript read first. */
  readFirst?: ReadBeforeContext;
  /**
   * The git identity of the person the server serves (where `baton serve` runs, as the hooks record a workflow's
   * owner): whose workflows are theirs on a database a team shares. Unset: the server cannot tell, `you` is not said.
   */
  you?: () => Promise<string | null>;
}

/**
 * Whose a workflow is told by, for a request: the identity a body or query gives (`Identity`, from CLIs older than
 * the header), else the one its X-Baton-Identity header gives (the CLI's own; null either way when none is set where
 * it runs), else the one the server serves (`you`); null when none can tell.
 */
export async function askerOf(
  deps: Pick<RouteDeps, 'you'>,
  c: Context,
  identity?: string | null,
): Promise<string | null> {
  if (identity !== undefined) return identity;
  const sent = identityOf(c);
  if (sent !== undefined) return sent;
  return deps.you ? deps.you() : null;
}

/**
 * What the sessions table and a status say of `you`: the person asking (`askerOf`); nothing when the server cannot
 * tell (no header, no `RouteDeps.you`).
 */
export const youOf = async (deps: Pick<RouteDeps, 'you'>, c: Context): Promise<{ you?: string | null }> =>
  identityOf(c) !== undefined || deps.you ? { you: await askerOf(deps, c) } : {};

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  content: { 'application/json': { schema } },
  required: true,
});

const errorContent = { content: { 'application/json': { schema: ErrorResponse } } };
const errorDescriptions: Record<number, string> = {
  400: 'invalid input: `error.issues` lists the failing field paths',
  401: 'missing or wrong bearer token',
  403: 'a foreign Origin on a state-changing request, or a Host that does not name this server',
  404: 'unknown workflow, snapshot, session or record',
  409: "illegal transition or lost race: `error` carries the workflow's current state",
  413: "request body over the server's limit (`--max-body`): `error.max_body_bytes` is the limit",
};

/** The responses of a route: the success shape plus the documented error statuses. */
export function responses<T extends z.ZodType, S extends 200 | 201 = 200>(
  schema: T,
  description: string,
  status: S = 200 as S,
) {
  const errors: Record<number, { description: string; content: typeof errorContent.content }> = {};
  for (const [code, text] of Object.entries(errorDescriptions))
    errors[Number(code)] = { description: text, ...errorContent };
  const success = { [status]: { description, content: { 'application/json': { schema } } } } as {
    [K in S]: { description: string; content: { 'application/json': { schema: T } } };
  };
  return { ...errors, ...success };
}

export const cwdHeaders = { headers: CwdHeaders };

/** The client's working directory from X-Baton-Cwd: absolute, no `..`, and a directory here. */
export function cwdOf(c: Context): string | undefined {
  const raw = c.req.header('x-baton-cwd');
  if (raw === undefined) return undefined;
  const parsed = AbsolutePath.safeParse(raw);
  if (!parsed.success)
    throw invalidInput(`header X-Baton-Cwd ${parsed.error.issues[0]?.message ?? 'is invalid'}`, {
      issues: [{ path: 'header.X-Baton-Cwd', message: parsed.error.issues[0]?.message }],
    });
  assertDirectory(parsed.data, 'header X-Baton-Cwd');
  return parsed.data;
}

export function assertDirectory(path: string, what: string) {
  let dir: boolean;
  try {
    dir = statSync(path).isDirectory();
  } catch {
    dir = false;
  }
  if (!dir) throw invalidInput(`${what} ${path} is not a directory on the server${elsewhereHint(what)}`);
}

/**
 * What to do about a client's path the server does not have: a mistyped one is fixed; one of a client on another
 * machine (the server cannot tell) is not needed to find a workflow by its id, and a worktree must exist where the
 * workflows' worktrees are read.
 */
function elsewhereHint(what: string): string {
  const first =
    what === 'header X-Baton-Cwd'
      ? "Name the workflow with `-w <id>` (`baton list` shows the server's)"
      : "A workflow's worktree must be a path on the server's machine";
  return `: check the path; if the server runs on another machine, where this path does not exist: ${first}; or use the team's database directly (BATON_DATABASE_URL instead of BATON_URL); or keep the repository at the same path on both machines (docs/workers.md, Worktrees)`;
}

/**
 * `{id}` names a workflow; `current` means the one incomplete workflow of the X-Baton-Cwd worktree. The header is
 * read only for `current`: with an id, a client's directory (perhaps of another machine) is none of our business.
 */
export function refOf(c: Context, id: string): Ref {
  if (id !== 'current') return { workflowId: id };
  const cwd = cwdOf(c);
  if (!cwd)
    throw invalidInput('workflow `current` needs the X-Baton-Cwd header (the directory to resolve it from)');
  const following = c.req.header('x-baton-following');
  if (following !== undefined && !Id.safeParse(following).success)
    throw invalidInput('header X-Baton-Following is not a workflow id');
  return following ? { cwd, following } : { cwd };
}
