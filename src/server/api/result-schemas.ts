import { z } from '@hono/zod-openapi';
import { BranchChange, EarlierWorkflow, ErrorRecord, TeammateAct, WorkflowStatus } from '../../core/index.js';

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

/** What a hook's session tracking did: the workflow it follows (null when untracked) and how. */
const trackFields = {
  workflow_id: z.string().nullable(),
  outcome: z.enum(['created', 'resumed', 'same', 'linked', 'next', 'untracked']),
  status: WorkflowStatus.nullable(),
  session_number: z.number().int().nullable(),
  others: z.number().int(),
  reinject: z.boolean(),
  empty: z.boolean(),
  note: z.string(),
  /** The session this one replaced stopped in the middle of its turn without ending: why (null when not). */
  cut_off: z.string().nullable(),
  /** The completed workflow this conversation followed, when a new one was created to follow it on (null when not). */
  earlier: z.object(EarlierWorkflow.shape).nullable(),
  /** A requested pause this call forced because it outlived its timeout: its reason ('' when it gave none). */
  paused_now: z.string().optional(),
  /** A requested pause this session start withdrew (the turn it waited for was cut off): its reason ('' when none). */
  pause_withdrawn: z.string().optional(),
  /** The worktree of the workflow this conversation goes on with, where it began, when the agent is now elsewhere. */
  started_in: z.string().optional(),
  /** The worktree, since gone, whose workflow this session goes on with (moved to this worktree). */
  moved_from: z.string().optional(),
  /** A teammate's pause, resume or abandon of the workflow since this conversation's last session. */
  teammate_act: TeammateAct.optional(),
  /** The other conversations that worked on the workflow since this conversation's last session. */
  others_worked: z
    .array(
      z.object({
        name: z.string(),
        session_id: z.string(),
        /** Its last Baton session. */
        session_number: z.number().int(),
        /** The title of the last request it was given; null when none (it went on with its list). */
        asked: z.string().nullable(),
      }),
    )
    .optional(),
  /** The open tasks the agent's list left out that it was not told of yet, to tell it now (`tell_left_out`). */
  left_out: z.array(z.object({ id: z.string(), title: z.string(), status: z.string() })).optional(),
};
export const TrackResult = z.object(trackFields).openapi('TrackResult');

export const InjectedContext = z
  .object({
    workflow_id: z.string(),
    snapshot_id: z.string(),
    hash: z.string(),
    tokens: z.number().int(),
    chars: z.number().int(),
    max_chars: z.number().int(),
    cut: z.boolean(),
    text: z.string(),
  })
  .openapi('InjectedContext');

/** The workflow a fresh start completed because its work was over, or found completed before it (`completed_at`). */
const FinishedWorkflow = z.object({
  workflow_id: z.string(),
  title: z.string(),
  reason: z.string(),
  context: z.string(),
  completed_at: z.string().optional(),
});

/** A workflow a fresh start set aside: the repository at its worktree's path is another one now. */
const SetAside = z.object({
  workflow_id: z.string(),
  title: z.string(),
  status: WorkflowStatus,
  reason: z.string(),
});

/** A workflow a new conversation left for the branch its work is on: another branch is checked out. */
export const OnOtherBranch = z.object({
  workflow_id: z.string(),
  title: z.string(),
  status: WorkflowStatus,
  branch: z.string(),
  checked_out: z.string(),
});

/** Another person's unfinished workflow at the folder's path or on its branch (core `TeammateWork`). */
export const TeammateWork = z
  .object({
    workflow_id: z.string(),
    owner: z.string(),
    title: z.string(),
    status: WorkflowStatus,
    updated_at: z.string(),
    branch: z.string().nullable(),
    same_folder: z.boolean(),
    stopped: z.string().nullable(),
  })
  .openapi('TeammateWork');

export const StartResult = z
  .object({
    ...trackFields,
    context: InjectedContext.nullable(),
    finished: FinishedWorkflow.nullable(),
    set_aside: z.array(SetAside),
    other_branches: z.array(OnOtherBranch).optional(),
    branch_changed: BranchChange.optional(),
    resumed_from: z.object({ status: WorkflowStatus, reason: z.string().nullable() }).optional(),
    limit_in_force: z.string().nullable().optional(),
    history_whole: z.literal(true).optional(),
    teammates: z.array(TeammateWork).optional(),
  })
  .openapi('StartResult');

export const AgentSessionEnded = z
  .object({
    workflow_id: z.string(),
    ended: z.boolean(),
    session_number: z.number().int().nullable(),
    snapshot: z.object({ id: z.string(), taken: z.boolean() }).nullable().openapi({
      description:
        'the snapshot the session ended on: one taken for it (trigger handover), or the latest, nothing recorded since',
    }),
  })
  .openapi('AgentSessionEnded');

export const AgentTurnEnded = z
  .object({ workflow_id: z.string(), recorded: z.boolean(), paused_snapshot_id: z.string().nullable() })
  .openapi('AgentTurnEnded');

export const CompactionNoted = z
  .object({ workflow_id: z.string(), reinject: z.boolean() })
  .openapi('CompactionNoted');

export const CheckpointIfDueResult = z
  .object({ workflow_id: z.string(), checkpoint: z.string().nullable(), reason: z.string() })
  .openapi('CheckpointIfDueResult');

/** Where a workflow stands against the branch its worktree has checked out (`baton status` and `baton context`). */
export const Standing = z
  .object({ workflow_id: z.string(), away: OnOtherBranch.nullable(), teammates: z.array(TeammateWork) })
  .openapi('Standing');
