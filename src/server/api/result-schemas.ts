import { z } from '@hono/zod-openapi';
import { ErrorRecord, WorkflowStatus } from '../../core/index.js';

/** The documented shapes of the smaller command results (beside response-schemas.ts). */
export const ResolveErrorResult = z
  .object({ workflow_id: z.string(), error: z.object(ErrorRecord.shape) })
  .openapi('ResolveErrorResult');

export const FeedbackAddressedResult = z
  .object({ workflow_id: z.string(), review_id: z.string(), addressed: z.boolean() })
  .openapi('FeedbackAddressedResult');

const CleanedWorkflow = z.object({
  id: z.string(),
  title: z.string(),
  status: WorkflowStatus,
  updated_at: z.string(),
});

export const CleanupResult = z
  .object({
    removed: z.array(CleanedWorkflow),
    /** Finished workflows kept because what Baton created for them (containers) could not be removed. */
    kept: z.array(z.object({ id: z.string(), title: z.string(), status: z.string(), reason: z.string() })),
    dry_run: z.boolean(),
    before: z.string().openapi({ description: 'workflows untouched since before this time were candidates' }),
  })
  .openapi('CleanupResult');
