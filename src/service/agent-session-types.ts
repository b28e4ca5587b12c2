import type {
  TeammateAct,
  AgentSessionOutcome,
  BranchChange,
  EarlierWorkflow,
  WorkflowStatus,
  AgentRef,
  OtherWork,
  TeammateWork,
} from '../core/index.js';
import type { SetAside } from './replaced-repository.js';
import type { OnOtherBranch } from './other-branch.js';

export interface TrackInput {
  cwd: string;
  /** The git worktree of `cwd` when the caller found it already (a hook does, without running git). */
  worktree?: string;
  /** The agent and its session; a null session id (the hook was not told it) follows the open session. */
  agent: AgentRef;
  /** Create a workflow when the worktree has none (the `auto_track` setting). */
  auto_track: boolean;
  /** Resume a paused or interrupted workflow first (a session start does; other hooks never resume). */
  resume: boolean;
  /**
   * false: only find the workflow this agent session follows, tying and creating nothing (a SessionEnd: ending a
   * session must not start one). A session no workflow follows yet is followed as by any hook.
   */
  link?: boolean;
  /**
   * false: a session no workflow follows yet is not followed either (a Stop that names no transcript: nothing of it can
   * be read, and tying it would give the worktree's workflow to a conversation Baton never saw).
   */
  follow_new?: boolean;
  /**
   * The caller tells the agent the open tasks its list left out that it was not told of yet (a prompt's hook): they
   * come back as `left_out`, marked told.
   */
  tell_left_out?: boolean;
}

export interface TrackResult {
  workflow_id: string | null;
  outcome: 'created' | 'resumed' | AgentSessionOutcome | 'untracked';
  status: WorkflowStatus | null;
  session_number: number | null;
  /** Other incomplete workflows of the worktree (the latest one is followed). */
  others: number;
  /** The agent compacted its context since it last got Baton's (the next prompt or start injects). */
  reinject: boolean;
  /** Nothing recorded yet beyond the sessions: no issue, task, request or record to hand over. */
  empty: boolean;
  note: string;
  /**
   * The session this one replaced was cut off: it stopped in the middle of its turn without a Stop or SessionEnd (a
   * crash, a kill): why, said to the user; null when not.
   */
  cut_off: string | null;
  /**
   * The completed workflow this conversation followed before (a conversation resumed after its workflow was
   * completed), when this call created a new workflow that follows it on; null otherwise.
   */
  earlier: EarlierWorkflow | null;
  /**
   * A requested pause this call forced because it outlived its timeout (the task under way never ended): its reason
   * ('' when it gave none), to tell the user (the agent may still be at work); absent when none was.
   */
  paused_now?: string;
  /**
   * A requested pause this session start withdrew: the turn it waited for was cut off, and the user is at work again.
   * Its reason ('' when it gave none), to tell the user; absent when none was.
   */
  pause_withdrawn?: string;
  /**
   * The worktree of the workflow this conversation goes on with, where it began, when the agent now works in another
   * folder (`codex resume <id>` there): its records and briefing stay that worktree's; absent otherwise.
   */
  started_in?: string;
  /**
   * The worktree, since gone (`git worktree remove`), whose workflow this session goes on with: the workflow was moved
   * to this worktree, which has its branch checked out. Absent otherwise.
   */
  moved_from?: string;
  /**
   * The other conversations that worked on the workflow since this conversation's last session, when this call took
   * it back from them (a prompt in a window left open while another agent went on): its own history does not hold
   * their work. Absent otherwise.
   */
  others_worked?: OtherWork[];
  /**
   * The open tasks this agent's list left out that it was not told of yet (its list was read from its transcript:
   * Codex's always is), marked told by this call for the caller to tell it (`tell_left_out`). Absent when none.
   */
  left_out?: { id: string; title: string; status: string }[];
  /**
   * A teammate's pause, resume or abandon of the workflow since this conversation's last session (`teammateActSince`):
   * the owner's agent and its user are told it (`teammateActText`). Absent otherwise.
   */
  teammate_act?: TeammateAct;
}

export interface InjectedContext {
  workflow_id: string;
  snapshot_id: string;
  hash: string;
  /** Estimated (about four characters a token): a hook never loads the tokenizer. */
  tokens: number;
  chars: number;
  max_chars: number;
  /** The text was cut after the must-keep facts still did not fit. */
  cut: boolean;
  text: string;
}

export type StartInput = TrackInput & {
  max_chars: number;
  reason: string;
  /**
   * The agent's session starts a new conversation (SessionStart's source `startup`): a workflow whose work is over
   * (core `finishedWork`) is completed and a new one follows this session, instead of handing over finished work.
   */
  fresh_start?: boolean;
  /**
   * Agent conversations of this worktree the hook knows are over although no SessionEnd came (core
   * `ConversationsOver`: the process that ran them exited, or went on to another conversation): on a fresh start, the
   * last workflow whose last session follows one of them is over once its work is done, as after a SessionEnd.
   */
  conversations_over?: Record<string, string>;
  /**
   * Another conversation is at work on the worktree's workflow (the hook looked): its agent process runs, or, where
   * processes cannot be seen, its transcript was written within the last minute. The open session it follows is not
   * taken as cut off.
   */
  active_elsewhere?: boolean;
  /** `active_elsewhere` is known only by that recent write: the other conversation may as well have been cut off. */
  active_elsewhere_unsure?: boolean;
  /**
   * The agent's conversation starts again in a new process (SessionStart's source `resume`): when the Baton session
   * that follows it was cut off in the middle of its turn (core `cutOffSession`), it is said so as for a new session.
   */
  reopened?: boolean;
};

/** The workflow a fresh start found finished and completed, or found completed (`completed_at`). */
export interface FinishedWorkflow {
  workflow_id: string;
  /** The user's request it followed (its issue), else its title. */
  title: string;
  reason: string;
  /** Its resume context, compiled small (FINISHED_CONTEXT_TOKENS): what it did, for the session that starts afresh. */
  context: string;
  /**
   * When it was completed before this start (its last task done, by the agent's tools or a command): this start found
   * it completed, and did not complete it. Absent when this start completed it.
   */
  completed_at?: string;
}

/** How a workflow a session start resumed had stopped, and why (its pause's reason, its interruption's). */
export interface ResumedFrom {
  status: WorkflowStatus;
  reason: string | null;
}

export type StartResult = TrackResult & {
  context: InjectedContext | null;
  finished: FinishedWorkflow | null;
  /**
   * The worktree's workflows a fresh start set aside because the repository at its path is another one now (deleted
   * and made again): paused unless stopped already, and not continued (see replaced-repository.ts).
   */
  set_aside: SetAside[];
  /**
   * The worktree's incomplete workflows a new conversation left for the branches their work is on (another one is
   * checked out): not continued here, they wait for a session on their branch (see other-branch.ts). Absent when none.
   */
  other_branches?: OnOtherBranch[];
  /**
   * The branch checked out does not hold the work of the workflow this session goes on with (a conversation resumed,
   * or a checkout mid-conversation): where its work was last seen (`branchChange`). Absent otherwise.
   */
  branch_changed?: BranchChange;
  /** This start resumed the workflow: how it had stopped (paused, interrupted) and why. Absent otherwise. */
  resumed_from?: ResumedFrom;
  /** The usage limit that stopped the workflow's last turn, while it is still in force (`limitInForce`), in words. */
  limit_in_force?: string | null;
  /**
   * The conversation reopened (`--resume`) where it left off: the workflow's last session was its own and nothing was
   * recorded since Baton's latest snapshot, so its history holds the work and no context is handed over (`context` is
   * null). Absent otherwise.
   */
  history_whole?: true;
  /**
   * Other people's unfinished workflows at this folder's path or on the branch checked out (`teammateWork`), found at
   * a new conversation's start: pointed to, not joined. Absent when none.
   */
  teammates?: TeammateWork[];
};
