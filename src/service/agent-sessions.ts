import {
  abandon,
  workflowBranch,
  moveWorktree,
  othersWorkedSince,
  teammateActSince,
  acknowledgeContext,
  branchChange,
  isDetached,
  briefingSession,
  checkpoint,
  checkpointDue,
  checkpointTooSoon,
  deliverContext,
  earlierWork,
  endAgentSession,
  endAgentTurn,
  finishedWork,
  finishWork,
  isEmptyWorkflow,
  isTerminal,
  isUnusedSessionWorkflow,
  linkAgentSession,
  AgentTaskSource,
  tellLeftOut,
  ownedBy,
  cutOffSession,
  namingWorkflow,
  withoutHeldSummary,
  markImported,
  noteCompaction,
  SessionSnapshot,
  takeSnapshot,
  type AgentSessionRef,
  type BatonEvent,
  type ConversationsOver,
  type Draft,
  type EarlierWorkflow,
  type Elsewhere,
  type GitCapture,
  counted,
  BatonError,
  sameGit,
  sameGitAs,
  type WorkflowState,
  workflowStatuses,
  writtenBy,
  limitInForce,
  withdrawPause,
} from '../core/index.js';
import { byIsoTime } from '../core/iso-order.js';
import type { BatonService } from './baton-service.js';
import type {
  FinishedWorkflow,
  InjectedContext,
  ResumedFrom,
  StartInput,
  StartResult,
  TrackInput,
  TrackResult,
} from './agent-session-types.js';
import { fitToCharacters } from './fit-characters.js';
import { agentLabel } from '../core/agent-label.js';
import { replacedRepository, setAside, type SetAside } from './replaced-repository.js';
import { branchStanding, workHere, type OnOtherBranch } from './other-branch.js';
import { importsOf } from './record-lists.js';
import { requestsSinceTurnEnd } from '../core/agent-turn.js';
import { workflowsHere } from './workflows-here.js';
import { workOfGoneWorktree } from './gone-worktree.js';
import { teammateWork } from './teammate-work.js';

/** What does not make a snapshot stale: the handoff, the sessions, compactions, the checkpoint of that snapshot. */
const bookkeeping: ReadonlySet<BatonEvent['type']> = new Set([
  'context.delivered',
  'context.acknowledged',
  'session.linked',
  'session.started',
  'session.ended',
  'turn.ended',
  'workflow.resumed',
  'context.compacted',
  'checkpoint.created',
]);

interface Found {
  w: WorkflowState | null;
  others: number;
  created: boolean;
  note: string;
  /** The workflow a fresh start completed because its work was over (the session then follows a new one). */
  finished?: FinishedWorkflow;
  /** The workflows a fresh start set aside: their repository is gone, another one is at the worktree's path. */
  setAside?: SetAside[];
  /** The completed workflow this conversation followed, when a new one was created to follow it on. */
  earlier?: EarlierWorkflow;
  /** The worktree's incomplete workflows a new conversation left for the other branches their work is on. */
  otherBranches?: OnOtherBranch[];
  /** The worktree of the workflow this conversation goes on with, where it began, when it is now in another folder. */
  startedIn?: string;
  /** The worktree, since gone, the workflow this conversation goes on with was moved here from (`takeOverGone`). */
  movedFrom?: string;
}

/**
 * How much of a finished workflow's context a session that starts afresh gets: what it did, not what to go on with.
 * Room for its tasks' and commits' whole titles (at 400 tokens, the recap of a long session cut them to 30 characters),
 * well inside what a session start injects (9,000 characters by default; the hook clips it to the room left).
 */
const FINISHED_CONTEXT_TOKENS = 800;

/**
 * A finished workflow's context as another session's briefing shows it: what it did, without its stamp line, its next
 * step (it is not to be continued) and a retrieval footer (which names no workflow: the briefing names it), its hints
 * for more naming it. `body`: the compiled context without a footer.
 */
const asFinished = (body: string, workflowId: string) =>
  namingWorkflow(
    body.replace(/^<!--.*-->\n/, '').replace(/\n### What to Do Next\n[\s\S]*?(?=\n### |$)/, '\n'),
    workflowId,
  );

const newest = (ws: readonly WorkflowState[]) =>
  [...ws].sort((a, b) => byIsoTime(b.updated_at, a.updated_at))[0];

/**
 * Continuity for agent sessions that Baton does not run itself (Claude Code, Codex with Baton's hooks): the
 * workflow of the worktree is found or created, the agent's session tied to a Baton session, the context handed
 * over within what the agent shows (one commit at a session start), compactions noted, and checkpoints taken only
 * after real work.
 */
export class AgentSessions {
  constructor(private readonly svc: BatonService) {}

  private now(): string {
    return (this.svc.options.now?.() ?? new Date()).toISOString();
  }

  /**
   * The worktree's incomplete workflow (the one this agent session follows, else the latest), created if allowed. On
   * a fresh start (a new conversation) the latest is completed first when its work is over (`finishWork`), and the
   * session gets a workflow of its own.
   */
  private async find(input: TrackInput, freshStart = false, over: ConversationsOver = {}): Promise<Found> {
    const { git } = this.svc;
    const { worktree, all, mine, moved, ended } = await this.look(input);
    let open = all.filter((w) => !isTerminal(w.status));
    const id = input.agent.session_id;
    // the conversation's workflow is of a worktree since removed, whose branch is checked out here: it moves here
    const back = moved ? await this.backFromGone(moved, worktree) : null;
    if (back)
      return { w: back.w, others: 0, created: false, note: `workflow ${back.w.id}`, movedFrom: back.from };
    if (moved)
      return {
        w: moved,
        others: 0,
        created: false,
        note: `workflow ${moved.id} of ${moved.worktree}, where this session started (its folder is now ${input.cwd})`,
        startedIn: moved.worktree,
      };
    const left = await this.dropUnusedLeft(open, mine, ended, over);
    open = open.filter((w) => !left.includes(w.id));
    const aside = !mine && freshStart ? await this.setAsideReplaced(open) : [];
    open = open.filter((w) => !aside.some((a) => a.workflow_id === w.id));
    // a new conversation goes on with the work of the branch checked out: one of another branch waits there
    const branches =
      !mine && !ended
        ? await branchStanding(this.svc.store, git, worktree, open)
        : { checkedOut: null, onBranch: [], away: [] };
    const away = branches.away;
    open = open.filter((w) => !away.some((a) => a.workflow_id === w.id));
    // none of this branch here: the work of a worktree since removed whose branch is checked out here goes on here
    const taken =
      !mine && !ended && branches.checkedOut !== null && !branches.onBranch.length
        ? await this.takeOverGone(worktree, branches.checkedOut)
        : null;
    if (taken) open = [...open, taken.w];
    const onBranch = taken ? [taken.w] : branches.onBranch;
    // the latest of this branch's workflows, else the latest
    const pick = (ws: readonly WorkflowState[]) =>
      newest(ws.filter((w) => onBranch.includes(w))) ?? newest(ws);
    const done = !mine && freshStart && input.auto_track ? await this.finishIfOver(pick(open), over) : null;
    if (done) open = open.filter((w) => w.id !== done.workflow.id);
    // a new conversation after the last workflow here was completed (`baton complete`, or its last task done once no
    // conversation was open on it): told what it did all the same, when the branch checked out holds that work
    const last = newest(all);
    const found =
      !done?.finished &&
      !mine &&
      !ended &&
      freshStart &&
      !open.length &&
      last?.status === 'completed' &&
      (await workHere(git, worktree, last, branches.checkedOut))
        ? await this.finishedBefore(last)
        : null;
    const finished = done?.finished ?? found;
    // the workflow whose end that is (none when it was completed without a reason to say)
    const finishedState = done?.finished ? done.workflow : found ? last : null;
    // what this start did to the worktree's earlier workflows, said with whatever it finds
    const earlier = {
      ...(finished ? { finished } : {}),
      ...(aside.length ? { setAside: aside } : {}),
      ...(away.length ? { otherBranches: away } : {}),
    };
    // a conversation whose workflow the user abandoned is followed again from its next prompt or start, which says so:
    // what the rest of the abandoned turn did (its list, its end) is that work's, recorded nowhere
    if (ended?.status === 'cancelled' && !mine && !input.resume)
      return {
        w: null,
        others: 0,
        created: false,
        note: `workflow ${ended.id}, which this conversation followed, was abandoned: Baton follows it again from its next prompt`,
      };
    if (open.length === 0 || ended) {
      if (!input.auto_track)
        return {
          w: null,
          others: 0,
          created: false,
          note: `no workflow in ${worktree} and auto_track is off; start one with \`baton create\``,
          ...earlier,
        };
      const start = await git.gitStart(worktree);
      if (start === null)
        return {
          w: null,
          others: 0,
          created: false,
          note: `${worktree} is not a git repository; Baton follows git worktrees`,
          ...earlier,
        };
      // the work the new workflow goes on from: this conversation's completed workflow, else the last one here, over
      // when this new conversation began (every surface links it, as the start's briefing does; the start tells of
      // that one as finished work, not as this conversation's)
      const before = ended ?? finishedState;
      const link = before
        ? { earlier: earlierWork(before, (await this.gitOf(before)).state, before !== ended) }
        : {};
      const follows = ended ? link : {};
      const w = await this.svc.create({
        title: `${agentLabel(input.agent.name)} session on ${start.branch ?? 'a detached HEAD'}`,
        tasks: [],
        worktree,
        // a payload without a session id is an agent's all the same: the workflow is named from the first request
        agent: input.agent,
        ...link,
      });
      const first = await this.firstCreated(w, new Set(all.map((o) => o.id)));
      if (first !== w)
        return { w: first, others: 0, created: false, note: `workflow ${first.id}`, ...earlier };
      if (ended && id !== null) await this.carryImport(ended, w.id, id);
      const after = ended ? `; its workflow ${ended.id} is ${ended.status}` : '';
      // a conversation that went on after its workflow ended: the worktree's other incomplete work waits beside it
      const others = ended ? open.length : 0;
      return {
        w,
        others,
        created: true,
        note: `following this session as workflow ${w.id}${after}${others ? ` (${counted(others, 'other incomplete workflow')} here)` : ''}`,
        ...earlier,
        ...follows,
      };
    }
    const latest = pick(open) as WorkflowState;
    const others = open.length - 1;
    const w = mine ?? latest;
    const more = others
      ? ` (${counted(others, 'other incomplete workflow')} here; ${mine ? "this session's" : 'the latest'} is followed)`
      : '';
    // the workflow moved here from a gone worktree, when this session goes on with it (not completed as over)
    const arrived = taken && w.id === taken.w.id ? { movedFrom: taken.from } : {};
    return { w, others, created: false, note: `workflow ${w.id}${more}`, ...earlier, ...arrived };
  }

  /**
   * Workflows an agent session opened and asked nothing in, whose conversation is over (its SessionEnd came, or, at a
   * session start, its process is gone): abandoned when a hook of another session here looks for its workflow, unless
   * one is the only workflow this session could take up (then it does). Left open, each would make a command without
   * an id ask which workflow is meant. The ids of those now ended.
   */
  private async dropUnusedLeft(
    open: readonly WorkflowState[],
    mine: WorkflowState | undefined,
    ended: WorkflowState | undefined,
    over: ConversationsOver,
  ): Promise<string[]> {
    const left = (w: WorkflowState) => {
      const last = w.sessions.at(-1);
      const gone =
        last?.ended_at != null || (last?.agent != null && over[last.agent.session_id] !== undefined);
      return !isTerminal(w.status) && isUnusedSessionWorkflow(w) && gone;
    };
    const candidates = open.filter((w) => w !== mine && left(w));
    const takenUp = !mine && !ended && candidates.length === open.length ? newest(candidates) : undefined;
    const gone: string[] = [];
    for (const w of candidates) {
      if (w === takenUp) continue;
      // decided again on the state the run commits to: another hook may have taken it up or ended it meanwhile
      const { result } = await this.svc.runner.run(
        w.id,
        (d) => {
          if (left(d.state)) abandon(d, 'nothing was asked in it and its agent session is over');
          return isTerminal(d.state.status);
        },
        { retry: true },
      );
      if (result) gone.push(w.id);
    }
    return gone;
  }

  /**
   * The latest incomplete workflows of the worktree whose repository was replaced (`replacedRepository`), newest first
   * until one that is this repository's: each set aside, so a new conversation does not continue another project.
   */
  private async setAsideReplaced(open: readonly WorkflowState[]): Promise<SetAside[]> {
    const aside: SetAside[] = [];
    let left = [...open];
    for (let w = newest(left); w; w = newest(left)) {
      const why = await replacedRepository(this.svc.store, this.svc.git, w);
      if (!why) break;
      aside.push(await setAside(this.svc, w, why));
      left = left.filter((o) => o.id !== w?.id);
    }
    return aside;
  }

  /**
   * Completes the workflow when its work is over, deciding on the state it commits to. Returns it when it is
   * complete now (`finished` set when this call completed it, not another hook at the same time), else null.
   */
  private async finishIfOver(
    w: WorkflowState | undefined,
    over: ConversationsOver,
  ): Promise<{ workflow: WorkflowState; finished: FinishedWorkflow | null } | null> {
    if (!w || finishedWork(w, this.now(), over) === null) return null;
    const out = await this.svc.runner.run(w.id, (d) => finishWork(d, over), { retry: true });
    if (!isTerminal(out.state.status)) return null;
    const why = out.result;
    if (!why) return { workflow: out.state, finished: null };
    // what it did, compiled small without writing to it (the stamp line is for contexts handed over)
    const compiled = await this.svc.queries.context(out.state, FINISHED_CONTEXT_TOKENS);
    const context = asFinished(compiled.body, w.id);
    return {
      workflow: out.state,
      finished: { workflow_id: w.id, title: w.issue?.title ?? w.title, reason: why, context },
    };
  }

  /** A workflow completed before this start, as a fresh start shows it: what it did, and when it was completed. */
  private async finishedBefore(w: WorkflowState): Promise<FinishedWorkflow> {
    const compiled = await this.svc.queries.context(w, FINISHED_CONTEXT_TOKENS);
    const at = w.ended_at ?? w.updated_at;
    return {
      workflow_id: w.id,
      title: w.issue?.title ?? w.title,
      reason: `completed at ${at.slice(0, 16).replace('T', ' ')} UTC`,
      context: asFinished(compiled.body, w.id),
      completed_at: at,
    };
  }

  /**
   * The worktree's workflows, and the one this agent session follows: incomplete here (`mine`), incomplete in another
   * worktree it moved from (`moved`), or ended (`ended`: completed, or abandoned with work in it; when the conversation
   * goes on, a resume or a terminal left open, it gets a workflow of its own rather than joining another
   * conversation's, and reads its transcript on from where the ended one's import stopped).
   */
  private async look(input: TrackInput) {
    const worktree = input.worktree ?? (await this.svc.git.resolveWorktree(input.cwd));
    const all = await workflowsHere(this.svc.store, this.svc.git, worktree);
    const id = input.agent.session_id;
    const follows = (w: WorkflowState) => id !== null && w.sessions.some((x) => x.agent?.session_id === id);
    const mine = all.find((w) => !isTerminal(w.status) && follows(w));
    // A session that moved its folder (into another repository, or out of any) stays with the workflow it started in.
    const moved = mine || id === null ? null : await this.followingElsewhere(id, worktree);
    // the conversation went on after its workflow ended: completed, or abandoned by the user (neither is reopened; an
    // empty one Baton abandoned, a duplicate or a conversation left unused, held nothing)
    const over = (w: WorkflowState) =>
      w.status === 'completed' || (w.status === 'cancelled' && !isEmptyWorkflow(w));
    const ended = mine || moved ? undefined : newest(all.filter((w) => over(w) && follows(w)));
    return { worktree, all, mine, moved, ended };
  }

  /**
   * The conversation's transcripts (its own, its sub-agents') go on in its new workflow from where the completed one's
   * imports stopped: what that workflow holds is not recorded again. The marks are found by the agent session that
   * wrote them (`writtenBy`), among every import of that workflow, not only the recent ones its state keeps.
   */
  private async carryImport(ended: WorkflowState, workflowId: string, sessionId: string) {
    const marks = (await importsOf(this.svc.store, ended)).imports.filter((m) =>
      writtenBy(m.transcript_session_id, sessionId),
    );
    if (!marks.length) return;
    await this.svc.runner.run(workflowId, (d) => {
      for (const m of marks) markImported(d, { ...m, records: 0 });
    });
  }

  /**
   * The incomplete workflow of a worktree since removed, with `branch` (checked out in `worktree`) as its branch
   * (`workOfGoneWorktree`), moved to `worktree`: it goes on here. Null when there is none, or when another hook
   * ended or moved it meanwhile.
   */
  private async takeOverGone(
    worktree: string,
    branch: string,
  ): Promise<{ w: WorkflowState; from: string } | null> {
    const gone = await workOfGoneWorktree(this.svc.store, this.svc.git, worktree, branch);
    return gone ? this.moveHere(gone, worktree, branch) : null;
  }

  /**
   * The workflow a conversation follows, of a worktree since removed whose branch is checked out in `worktree` (the
   * conversation resumed there: `codex resume <id>`), moved here; null when its worktree is there or its branch is not.
   */
  private async backFromGone(w: WorkflowState, worktree: string) {
    const branch = (await this.svc.git.gitStart(worktree))?.branch;
    if (!branch || workflowBranch(w) !== branch || !(await this.svc.git.worktreeGone(w.worktree)))
      return null;
    return this.moveHere(w, worktree, branch);
  }

  /** Moves the workflow of a gone worktree to `worktree`; null when another hook ended or moved it meanwhile. */
  private async moveHere(
    gone: WorkflowState,
    worktree: string,
    branch: string,
  ): Promise<{ w: WorkflowState; from: string } | null> {
    const from = gone.worktree;
    const reason = `its worktree ${from} is gone and its branch ${branch} is checked out in ${worktree}`;
    const { result, state } = await this.svc.runner.run(
      gone.id,
      (d) => !isTerminal(d.state.status) && d.state.worktree === from && moveWorktree(d, worktree, reason),
      { retry: true },
    );
    return result ? { w: state, from } : null;
  }

  /** The incomplete workflow of another worktree that follows this agent session, if one does. */
  private async followingElsewhere(sessionId: string, worktree: string): Promise<WorkflowState | null> {
    const open = await this.svc.store.listWorkflows({
      status: workflowStatuses.filter((s) => !isTerminal(s)),
    });
    return (
      open.find(
        (w) => w.worktree !== worktree && w.sessions.some((x) => x.agent?.session_id === sessionId),
      ) ?? null
    );
  }

  /**
   * Two hooks that find no workflow at once (two terminals, or hooks wired twice) each create one. The one whose
   * creation committed first is kept; a later one abandons itself and follows it, so the worktree has one workflow.
   * The order is the store's commit order (the store-wide position of each workflow's first event), not the callers'
   * clocks: a creation stamped earlier can commit later, after the other hook looked and kept its own. Our position
   * is read before we look, so a workflow we cannot see yet commits after it, and its creator sees ours first.
   */
  private async firstCreated(w: WorkflowState, seen: ReadonlySet<string>): Promise<WorkflowState> {
    const { store } = this.svc;
    const position = async (id: string) =>
      (await store.readEventsSince(0, 1, id))[0]?.position ?? Number.MAX_SAFE_INTEGER;
    const mine = await position(w.id);
    // the workflows that were open when we looked are other conversations', not a creation racing ours; a racing
    // creation is made under the identity at this path now, as ours is (`w.owner`), so the same email is the test (an
    // old email's, mapped by git's mailmap, is an earlier workflow, never one created at this moment)
    const others = (await store.listWorkflows({ worktree: w.worktree })).filter(
      (o) => o.id !== w.id && !isTerminal(o.status) && !seen.has(o.id) && ownedBy(o, w.owner ?? null),
    );
    let first = w;
    let earliest = mine;
    for (const o of others) {
      const at = await position(o.id);
      if (at < earliest) [first, earliest] = [o, at];
    }
    if (first.id === w.id) return w;
    await this.svc.abandon(
      { workflowId: w.id },
      `created at the same time as ${first.id}, which is followed`,
    );
    return first;
  }

  private result(
    f: Found,
    s: WorkflowState,
    outcome: TrackResult['outcome'],
    session: number,
    note: string,
    cutOff: string | null = null,
  ): TrackResult {
    return {
      workflow_id: s.id,
      outcome,
      status: s.status,
      session_number: session,
      others: f.others,
      reinject: s.reinject ?? false,
      empty: isEmptyWorkflow(s),
      note,
      cut_off: cutOff,
      earlier: f.earlier ?? null,
      ...(f.startedIn ? { started_in: f.startedIn } : {}),
      ...(f.movedFrom ? { moved_from: f.movedFrom } : {}),
    };
  }

  private untracked(note: string): TrackResult {
    return {
      workflow_id: null,
      outcome: 'untracked',
      status: null,
      session_number: null,
      others: 0,
      reinject: false,
      empty: true,
      note,
      cut_off: null,
      earlier: null,
    };
  }

  /**
   * Resumes a paused or interrupted workflow when asked to; null when it stays as it is. `from`: how it had stopped
   * (as it stood once a pause that outlived its timeout was settled), null when it had not.
   */
  private async resumeIfStopped(
    f: Found & { w: WorkflowState },
    resume: boolean,
  ): Promise<{ state: WorkflowState; from: ResumedFrom | null } | null> {
    const w = await this.svc.settleOverduePause(f.w);
    if (w.status !== 'paused' && w.status !== 'interrupted') return { state: w, from: null };
    if (!resume) return null;
    const from = {
      status: w.status,
      reason: w.status === 'interrupted' ? w.interrupt_reason : w.pause_reason,
    };
    await this.svc.resume({ workflowId: f.w.id });
    return { state: await this.svc.runner.load(f.w.id), from };
  }

  /** Finds or creates the workflow and ties the agent session to it (a session start also resumes it). */
  async track(
    input: TrackInput,
    /** How a session start that tracks (a workflow with nothing in it yet) ties its agent session (linkAgentSession). */
    link: { start?: boolean; elsewhere?: boolean } = {},
  ): Promise<TrackResult> {
    if (input.link === false || input.follow_new === false) {
      const { mine, moved, ended } = await this.look(input);
      const w = mine ?? moved;
      // a session no workflow follows (nor followed), not to be followed now: nothing is tied to it
      if (input.follow_new === false && !w && !ended)
        return this.untracked(
          `no workflow follows ${agentLabel(input.agent.name)} session ${input.agent.session_id ?? '(no id)'}, and its hook names no transcript that can be read: not followed`,
        );
    }
    if (input.link === false) {
      const { mine, moved, ended } = await this.look(input);
      const w = mine ?? moved;
      if (w) {
        const own = [...w.sessions].reverse().find((x) => x.agent?.session_id === input.agent.session_id);
        const f = { w, others: 0, created: false, note: `workflow ${w.id}` };
        return this.result(
          f,
          w,
          'same',
          own?.number ?? w.session_count,
          `workflow ${w.id}, which this session follows`,
        );
      }
      if (ended)
        return this.untracked(`workflow ${ended.id}, which this session followed, is ${ended.status}`);
    }
    const f = await this.find(input);
    if (!f.w) return this.untracked(f.note);
    if (f.created) return this.result(f, f.w, 'created', 1, f.note);
    const r = await this.resumeIfStopped({ ...f, w: f.w }, input.resume);
    if (!r) {
      // stopped before, or just now (a pause that outlived its timeout: said, the agent may still be at work)
      const stopped = await this.svc.runner.load(f.w.id);
      const forced = f.w.status !== 'paused' && f.w.pause_requested && stopped.status === 'paused';
      return {
        ...this.result(
          f,
          stopped,
          'same',
          stopped.session_count,
          `${f.note} is ${stopped.status}; the next session start resumes it`,
        ),
        ...(forced ? { paused_now: stopped.pause_reason ?? '' } : {}),
      };
    }
    const resumed = r.from !== null;
    const { result, state } = await this.svc.runner.run(
      r.state.id,
      (d) => {
        // read before the link: the conversations that worked on it while this one waited
        const others = othersWorkedSince(d.state, input.agent);
        // and a teammate's pause, resume or abandon since its last session: its owner is told at this prompt
        const teammate = teammateActSince(d.state, input.agent);
        const linked = linkAgentSession(d, input.agent, link);
        const source = AgentTaskSource.safeParse(input.agent.name);
        const leftOut = input.tell_left_out && source.success ? tellLeftOut(d, source.data) : [];
        return { ...linked, others, leftOut, teammate };
      },
      {
        retry: true,
      },
    );
    // a conversation taking its turn again after others worked (a prompt in the window left open): it is told
    const away = result.outcome === 'next' && result.others.length ? { others_worked: result.others } : {};
    const leftOut = result.leftOut?.length ? { left_out: result.leftOut } : {};
    const teammate = result.teammate ? { teammate_act: result.teammate } : {};
    return {
      ...this.result(
        f,
        state,
        resumed ? 'resumed' : result.outcome,
        result.session_number,
        `${resumed ? 'resumed' : 'following'} ${f.note} as session ${result.session_number}`,
        result.cut_off ?? null,
      ),
      ...away,
      ...leftOut,
      ...teammate,
    };
  }

  /**
   * A session start: the workflow found or created (a stopped one resumed), the agent session tied to it, and its
   * context handed over, in one commit (a snapshot first when the last one is stale). A workflow with nothing in it
   * yet gets no context.
   */
  async start(input: StartInput): Promise<StartResult> {
    const started = await this.startFound(input);
    // a new conversation is told once, at its start, of other people's unfinished work it could be taken for
    if (!input.fresh_start || !started.workflow_id) return started;
    const worktree = input.worktree ?? (await this.svc.git.resolveWorktree(input.cwd));
    const { store, git } = this.svc;
    const owner = await git.owner(worktree);
    const theirs = await teammateWork(store, git, worktree, owner, new Date(this.now()));
    return theirs.length ? { ...started, teammates: theirs } : started;
  }

  private async startFound(input: StartInput): Promise<StartResult> {
    const f = await this.find(input, input.fresh_start === true, input.conversations_over);
    const finished = f.finished ?? null;
    const set_aside = f.setAside ?? [];
    const away = f.otherBranches?.length ? { other_branches: f.otherBranches } : {};
    if (!f.w) return { ...this.untracked(f.note), context: null, finished, set_aside, ...away };
    const r = f.created
      ? { state: f.w, from: null }
      : await this.resumeIfStopped({ ...f, w: f.w }, input.resume);
    if (!r) throw new BatonError('internal', 'unreachable: a session start always resumes');
    const w = r.state;
    const resumed = r.from !== null;
    // how it had stopped, when this start resumed it: the user is told
    const resumedFrom = r.from ? { resumed_from: r.from } : {};
    if (isEmptyWorkflow(w)) {
      const t = f.created
        ? null
        : await this.track(
            { ...input, resume: false },
            { start: true, elsewhere: input.active_elsewhere === true },
          );
      return {
        ...(t ?? this.result(f, w, 'created', 1, f.note)),
        context: null,
        finished,
        set_aside,
        ...away,
      };
    }
    // a session cut off in the middle of its turn: the context says so (a snapshot of trigger crash), never an older
    // one (decided again on the state the run commits to: a hook that wrote meanwhile may change it)
    const judgeCutOff = input.active_elsewhere !== true;
    const reopened = input.reopened === true;
    const git = await this.gitOf(w);
    // the branch checked out does not hold the work: said, unless its branch is gone (nowhere to go back to)
    const change = branchChange(w, git);
    const gone =
      change !== null &&
      !isDetached(change.from) &&
      (await this.svc.git.hasBranch(w.worktree, change.from)) === false;
    const moved = gone ? null : change;
    const fresh =
      judgeCutOff && cutOffSession(w, input.agent, { reopened }) ? null : await this.freshSnapshot(w, git);
    // reopened after a turn that ended with nothing since (its Stop took no checkpoint: one was taken minutes before)
    const sinceTurn = reopened && !fresh && (await this.unchangedSinceTurn(w));
    // the session the work stands at: sessions after it recorded nothing (a conversation opened and quit unused);
    // a snapshot taken after the turn ended (the quit's) is fresh, but what was recorded before it and after the turn
    // (a task added, a decision recorded from a terminal) is not in the conversation's history
    const standing =
      fresh && (!reopened || (await this.nothingSinceTurn(w)))
        ? fresh.session_number
        : sinceTurn
          ? (w.turn_ended?.session_number ?? null)
          : null;
    const { result, state } = await this.svc.runner.run(
      w.id,
      (d) => {
        // the conversation reopened (`--resume`) where it left off: the workflow's last session was its own, or the
        // session the work stands at was (other conversations opened since recorded nothing), and nothing since cut
        // it, stopped the workflow or moved its branch, nor was recorded (the latest snapshot, or its last turn's
        // end, still stands: only bookkeeping after it, HEAD and files where they were); its history holds the work
        // (no briefing)
        const isIt = (a: AgentSessionRef | null | undefined) =>
          a?.name === input.agent.name && a.session_id === input.agent.session_id;
        const own =
          reopened &&
          standing !== null &&
          !resumed &&
          !moved &&
          (isIt(d.state.sessions.at(-1)?.agent) ||
            isIt(d.state.sessions.find((x) => x.number === standing)?.agent));
        // a conversation reopened after others worked on the workflow: its history does not hold their work
        const others = reopened ? othersWorkedSince(d.state, input.agent) : [];
        const link = linkAgentSession(d, input.agent, {
          judgeCutOff,
          reopened,
          start: true,
          elsewhere: !judgeCutOff,
          git: git ?? { state: null, note: null },
        });
        // a pause asked for that waited for the turn the cut ended: the user is at work again, as after `baton
        // resume`, so it is withdrawn (left waiting, it would stop this session at its first task boundary)
        const withdrawn = link.cut_off ? withdrawPause(d) : null;
        if (own && !link.cut_off) return { link, context: null, whole: true, withdrawn, others };
        const why = link.cut_off ? { trigger: 'crash' as const, reason: link.cut_off } : null;
        // the agent session that goes on (a compaction, a resume) holds its own compaction summary
        const held = link.outcome === 'same';
        // a new conversation beside another at work (the hook saw its agent running, or its transcript written
        // moments ago): the briefing's task in progress and last state are that conversation's
        const elsewhere: Elsewhere | undefined =
          judgeCutOff || link.outcome === 'same'
            ? undefined
            : input.active_elsewhere_unsure === true
              ? 'maybe_at_work'
              : 'at_work';
        return {
          link,
          // a session cut off ended on its crash snapshot (core `linkAgentSession`): the briefing is compiled from it
          context: this.handover(d, link.cut_off_snapshot ?? (why ? null : fresh), git, {
            ...input,
            ...why,
            held,
            elsewhere,
          }),
          whole: false,
          withdrawn,
          others,
        };
      },
      { retry: true },
    );
    const outcome = f.created ? 'created' : resumed ? 'resumed' : result.link.outcome;
    return {
      ...this.result(
        f,
        state,
        outcome,
        result.link.session_number,
        `${resumed ? 'resumed' : 'following'} ${f.note} as session ${result.link.session_number}`,
        result.link.cut_off ?? null,
      ),
      context: result.context,
      ...(result.whole ? { history_whole: true as const } : {}),
      ...(result.others.length && result.context ? { others_worked: result.others } : {}),
      ...(result.withdrawn ? { pause_withdrawn: result.withdrawn.reason ?? '' } : {}),
      finished,
      set_aside,
      ...away,
      ...resumedFrom,
      ...(moved ? { branch_changed: moved } : {}),
      limit_in_force: this.ownLimit(state, input.agent.name),
    };
  }

  /**
   * This agent's usage limit, in words, while it is in force (`limitInForce`): a limit Codex met does not stop Claude
   * Code, which the user went back to meanwhile, and Claude Code's still holds after Codex worked while it waited.
   */
  private ownLimit(state: WorkflowState, agent: string): string | null {
    return limitInForce(state.summaries, state.recent_requests, new Date(this.now()), agent);
  }

  /**
   * The agent's session ended (SessionEnd): the Baton session that follows it ends too (core `endAgentSession`), on a
   * snapshot of where it left off unless the latest one still stands.
   */
  async end(workflowId: string, input: { agent: AgentSessionRef; reason: string | null }) {
    const s = await this.svc.runner.load(workflowId);
    const git = s.status === 'in_progress' && !isEmptyWorkflow(s) ? await this.gitOf(s) : null;
    // decided on this version of the state: a hook that wrote meanwhile (a retried run) makes it take a snapshot
    const at = git ? { git, fresh_at: (await this.freshSnapshot(s, git)) ? s.version : null } : null;
    const out = await this.svc.runner.run(
      workflowId,
      (d) => endAgentSession(d, input.agent, input.reason, at),
      { retry: true },
    );
    return out.result;
  }

  /**
   * The agent's turn ended (Stop, StopFailure, SessionEnd): core `endAgentTurn`, with where git stands (a conversation
   * reopened finds whether it moved since); a pause that waited for it takes effect.
   */
  async endTurn(workflowId: string, input: { agent: string }) {
    const s = await this.svc.runner.load(workflowId);
    const git = s.pause_requested ? await this.gitOf(s) : null;
    // where git stands, read only when this end is recorded (a turn's first)
    const mark =
      requestsSinceTurnEnd(s) > 0 && !isTerminal(s.status) ? await this.svc.git.gitMark(s.worktree) : null;
    const out = await this.svc.runner.run(workflowId, (d) => endAgentTurn(d, input.agent, git, mark), {
      retry: true,
    });
    return out.result;
  }

  /**
   * The workflow's git state as the service reads it (`workflowGit`): a hook follows a workflow of another folder when
   * its agent session id is one that workflow's session had (a conversation that moved its folder, or an id reused:
   * a conversation copied to another person's machine), and that folder's path here may hold another person's clone
   * (devcontainers' one path), whose branch and files are not recorded as the workflow's. The owner's identity is
   * the one git gave this hook moments ago (git keeps it a few seconds): one person's workflows cost no git process
   * more, only an owner other than the person here asks git's mailmap.
   */
  private gitOf(s: WorkflowState): Promise<GitCapture> {
    return this.svc.gitOf(s);
  }

  /**
   * The latest snapshot when nothing but bookkeeping happened since it and HEAD has not moved (a commit the
   * transcripts never reported, made by hand or by a call a crash cut off, is news); null when a new one is needed.
   */
  private async freshSnapshot(s: WorkflowState, git: GitCapture): Promise<SessionSnapshot | null> {
    const last = s.last_snapshot;
    if (!last) return null;
    const after = await this.svc.store.readEvents(s.id, last.seq);
    if (!after.every((e) => bookkeeping.has(e.type))) return null;
    const row = await this.svc.store.getRecord(s.id, 'snapshot', last.id);
    const snap = row ? SessionSnapshot.parse(row.data) : null;
    return snap && sameGit(snap, git) ? snap : null;
  }

  /**
   * Nothing but bookkeeping and snapshots recorded since the workflow's last turn ended, or since a context handed
   * over after it (the conversation was briefed on what came before); true when no turn's end is known.
   */
  private async nothingSinceTurn(s: WorkflowState): Promise<boolean> {
    const seq = s.turn_ended?.seq;
    if (seq === undefined) return true;
    const events = await this.svc.store.readEvents(s.id, seq);
    const briefed = events.findLastIndex((e) => e.type === 'context.delivered');
    return events.slice(briefed + 1).every((e) => bookkeeping.has(e.type) || e.type === 'snapshot.taken');
  }

  /**
   * Git still stands where the last turn ended (its mark), with nothing but bookkeeping since (sessions of other
   * conversations that recorded nothing included).
   */
  private async unchangedSinceTurn(s: WorkflowState): Promise<boolean> {
    const turn = s.turn_ended;
    if (!turn?.git || turn.seq === undefined) return false;
    if (!sameGitAs(turn.git, await this.svc.git.gitMark(s.worktree))) return false;
    return (await this.svc.store.readEvents(s.id, turn.seq)).every((e) => bookkeeping.has(e.type));
  }

  /** Snapshot (unless fresh), compile within the character limit, deliver and acknowledge: all on one draft. */
  private handover(
    d: Draft,
    fresh: SessionSnapshot | null,
    git: GitCapture | null,
    input: { max_chars: number; reason: string; trigger?: 'crash'; held: boolean; elsewhere?: Elsewhere },
  ): InjectedContext {
    const snap =
      fresh ?? takeSnapshot(d, input.trigger ?? 'handover', input.reason, git ?? { state: null, note: null });
    const session = briefingSession(d.state);
    const began = d.state.sessions[d.state.sessions.length - 1]?.started_at;
    const shown = input.held && began ? withoutHeldSummary(snap, began) : snap;
    // the agent the briefing goes to: the one the session follows (tied before the handover)
    const briefed = d.state.sessions.at(-1)?.agent?.name ?? null;
    const fitted = fitToCharacters(
      (budget) =>
        this.svc.compiler.compile(shown, session, {
          workflow: {
            ...d.state,
            briefed_agent: briefed,
            ...(input.elsewhere ? { elsewhere: input.elsewhere } : {}),
          },
          budget,
        }),
      shown,
      input.max_chars,
      briefed,
    );
    deliverContext(d, {
      snapshot_id: snap.id,
      context_hash: fitted.hash,
      tokens: fitted.tokens,
      via: 'hook',
    });
    acknowledgeContext(d, fitted.hash, 'hook');
    return { workflow_id: d.state.id, snapshot_id: snap.id, max_chars: input.max_chars, ...fitted };
  }

  /** The context for an agent session already tied (the first prompt after a compaction), in one commit. */
  async inject(workflowId: string, input: { maxChars: number; reason: string }): Promise<InjectedContext> {
    const s = await this.svc.runner.load(workflowId);
    const git = await this.gitOf(s);
    const fresh = await this.freshSnapshot(s, git);
    const out = await this.svc.runner.run(
      workflowId,
      (d) => this.handover(d, fresh, git, { max_chars: input.maxChars, reason: input.reason, held: true }),
      { retry: true },
    );
    return out.result;
  }

  /** The agent compacted its context (PostCompact): the summary kept, the next prompt or start injects. */
  async noteCompaction(
    workflowId: string,
    input: { agent: string; trigger: string | null; summary: string | null },
  ) {
    const out = await this.svc.runner.run(workflowId, (d) => noteCompaction(d, input), { retry: true });
    return { reinject: out.state.reinject ?? false };
  }

  /** A checkpoint after real work, at most every `intervalMs`: what Stop and SessionEnd do after their import. */
  async checkpointIfDue(
    workflowId: string,
    input: { name: string; intervalMs: number },
  ): Promise<{ checkpoint: string | null; reason: string }> {
    // Decided on the state it commits to: a hook that wrote meanwhile (a checkpoint of its own) makes it decide again.
    for (let attempt = 1; ; attempt++)
      try {
        return await this.checkpointOnce(workflowId, input);
      } catch (e) {
        if (attempt >= 3 || !BatonError.isInstance(e) || e.code !== 'conflict') throw e;
      }
  }

  private async checkpointOnce(workflowId: string, input: { name: string; intervalMs: number }) {
    const s = await this.svc.runner.load(workflowId);
    if (isTerminal(s.status)) return { checkpoint: null, reason: `the workflow is ${s.status}` };
    const soon = checkpointTooSoon(s, this.now(), input.intervalMs);
    if (soon) return { checkpoint: null, reason: soon.reason };
    const git = await this.gitOf(s);
    const last = s.checkpoints[s.checkpoints.length - 1];
    const row = last ? await this.svc.store.getRecord(s.id, 'snapshot', last.snapshot_id) : null;
    const lastGit = row ? SessionSnapshot.parse(row.data).git_state : null;
    const decision = checkpointDue(s, {
      now: this.now(),
      intervalMs: input.intervalMs,
      git: git.state,
      lastGit,
    });
    if (!decision.due) return { checkpoint: null, reason: decision.reason };
    const out = await this.svc.runner.run(workflowId, (d) => {
      // the interval checked again on the state it commits to: another hook's checkpoint since (two conversations'
      // Stops at once) makes this one too soon
      const since = checkpointTooSoon(d.state, this.now(), input.intervalMs);
      if (since) return { checkpoint: null, reason: since.reason };
      return { checkpoint: checkpoint(d, input.name, git, 'scheduled').name, reason: decision.reason };
    });
    return out.result;
  }
}
