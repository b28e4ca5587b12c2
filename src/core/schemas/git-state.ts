import { z } from 'zod';

/** Git repository state at snapshot time (Amelia's GitState). */
export const GitState = z.object({
  branch: z.string(),
  commit_at_workflow_start: z.string().nullable(),
  commit_at_snapshot: z.string().nullable(),
  files_modified: z.array(z.string()),
  files_staged: z.array(z.string()),
  has_uncommitted_changes: z.boolean(),
  uncommitted_summary: z.string().nullable(),
});
export type GitState = z.infer<typeof GitState>;

/** What a capture returns: the state, or a note saying why there is none (not a repository, git missing). */
export const GitCapture = z.object({
  state: GitState.nullable(),
  note: z.string().nullable(),
});
export type GitCapture = z.infer<typeof GitCapture>;
