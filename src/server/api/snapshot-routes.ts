import { createRoute, z } from '@hono/zod-openapi';
import type { DetailsPaging } from '../../service/index.js';
import { cwdHeaders, jsonBody, refOf, responses, type RouteDeps } from './define.js';
import {
  CheckpointBody,
  DetailCategoryParam,
  DetailsQuery,
  SnapshotOnlyParams,
  SnapshotParams,
  WorkflowParams,
} from './request-schemas.js';
import {
  CheckpointList,
  CheckpointResult,
  Details,
  ImportList,
  SnapshotList,
  SnapshotSchema,
} from './response-schemas.js';

const tags = ['snapshots'];

/** The page a details query asks for; none without a limit (every record). */
const pagingOf = (q: {
  limit?: number | undefined;
  before?: number | undefined;
}): DetailsPaging | undefined => (q.limit === undefined ? undefined : { limit: q.limit, before: q.before });

/** Snapshots, their retrieval categories (decisions, errors, git-changes...), and checkpoints. */
export function registerSnapshotRoutes({ app, client }: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/snapshots',
      tags,
      summary: "the workflow's snapshots, oldest first",
      request: { params: WorkflowParams, ...cwdHeaders },
      responses: responses(SnapshotList, 'snapshot summaries'),
    }),
    async (c) => c.json(await client.snapshots(refOf(c, c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/snapshots/{sid}',
      tags,
      summary: 'one snapshot in full',
      request: { params: SnapshotParams, ...cwdHeaders },
      responses: responses(SnapshotSchema, 'the SessionSnapshot'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      const ref = refOf(c, p.id);
      const workflowId = ref.workflowId ?? (await client.get(ref)).id;
      return c.json(await client.snapshot({ workflowId }, p.sid), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/snapshots/{sid}/{category}',
      tags,
      summary: 'everything of one category as of the snapshot (decisions, errors, git-changes, ...)',
      request: {
        params: SnapshotParams.extend({ category: DetailCategoryParam }),
        query: DetailsQuery,
        ...cwdHeaders,
      },
      responses: responses(Details, 'the full list behind the snapshot'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      const ref = refOf(c, p.id);
      const workflowId = ref.workflowId ?? (await client.get(ref)).id;
      return c.json(
        await client.details({ workflowId }, p.sid, p.category, pagingOf(c.req.valid('query'))),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/snapshots/{sid}',
      tags,
      summary: 'a snapshot by id alone (ids are unique across workflows)',
      request: { params: SnapshotOnlyParams },
      responses: responses(SnapshotSchema, 'the SessionSnapshot'),
    }),
    async (c) => c.json(await client.snapshot({}, c.req.valid('param').sid), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/snapshots/{sid}/{category}',
      tags,
      summary: 'details of a snapshot by id alone',
      request: { params: SnapshotOnlyParams.extend({ category: DetailCategoryParam }), query: DetailsQuery },
      responses: responses(Details, 'the full list behind the snapshot'),
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await client.details({}, p.sid, p.category, pagingOf(c.req.valid('query'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/workflows/{id}/checkpoints',
      tags,
      summary:
        'make a named checkpoint (a snapshot, and the git commit HEAD is at: uncommitted files are not saved), stored as cp-NN-name',
      request: { params: WorkflowParams, ...cwdHeaders, body: jsonBody(CheckpointBody) },
      responses: responses(CheckpointResult, 'the checkpoint', 201),
    }),
    async (c) => {
      const out = await client.checkpoint(refOf(c, c.req.valid('param').id), c.req.valid('json').name);
      return c.json(out, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/checkpoints',
      tags,
      summary: "the workflow's checkpoints",
      request: { params: WorkflowParams, ...cwdHeaders },
      responses: responses(CheckpointList, 'the checkpoints'),
    }),
    async (c) => c.json(await client.checkpoints(refOf(c, c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/workflows/{id}/imports',
      tags,
      summary:
        "the transcripts imported into the workflow and how far each was read, oldest first, with the parsers' carry-over (for an importer to read on)",
      request: {
        params: WorkflowParams,
        ...cwdHeaders,
        query: z.strictObject({
          path: z.string().min(1).max(4096).optional(),
          recent: z.enum(['true', 'false']).optional().openapi({
            description:
              '`true`: only the recent ones the workflow keeps (those its status lists), none from the records',
          }),
        }),
      },
      responses: responses(ImportList, "the import marks (with `path`, only that file's)"),
    }),
    async (c) => {
      const { path, recent } = c.req.valid('query');
      const out = await client.imports(refOf(c, c.req.valid('param').id), path, {
        recent: recent === 'true',
      });
      return c.json(out, 200);
    },
  );
}
