import type { PauseResult, PersonResumeResult } from '../client/baton-client.js';
import { agentLabel, formatAgo, formatSpan } from '../core/index.js';
import type { Elsewhere } from './whose-workflow.js';

/**
 * How a paused or interrupted workflow goes on, said by `baton pause` and `baton status` alike. One an agent's
 * conversation follows through the hooks (`following`, its agent's name) most likely goes on in that agent, which is
 * said first: at the next prompt of that conversation while it is open (`open`: a pause ends Baton's session, not the
 * agent's), else in a new one; not known (null), both are said. One whose work is over (`over`: paused once its tasks
 * were done) is completed by a new conversation instead, which is said. A workflow made by hand goes on with `baton
 * run`, or an agent the person starts on `baton resume`.
 */
export function goOnLine(
  id: string,
  following: string | null = null,
  open: boolean | null = null,
  over = false,
  elsewhere: Elsewhere | null = null,
) {
  const run = `\`baton run -w ${id}\` (Baton runs the agent)`;
  if (!following)
    return `to go on: ${run} or \`baton resume -w ${id}\` (you start it; with the hooks, your next prompt resumes it)`;
  const agent = agentLabel(following);
  const here = hereOr(elsewhere);
  if (over) {
    const prompt =
      open === false
        ? ''
        : `send your next prompt in the ${agent} session ${open ? `still open ${here}` : 'if it is still open'} (the hooks resume ${id}), or `;
    return `to go on with it: ${prompt}${run}; a new ${agent} conversation ${here} completes it instead and starts a new workflow (its work is over)`;
  }
  return `to go on: ${goOnWhere(agent, open, elsewhere)} (the hooks resume ${id}), or ${run}`;
}

/**
 * Where the workflow's agent goes on: here, or its worktree when the command runs outside it (`elsewhere`: a teammate's
 * clone, another folder), where a conversation takes up a workflow of its own, not this one; a teammate's is named
 * theirs (their worktree, even at this path: their agent goes on with it, not yours).
 */
const hereOr = (elsewhere: Elsewhere | null) =>
  !elsewhere
    ? 'here'
    : elsewhere.owner
      ? `in ${elsewhere.owner}'s worktree ${elsewhere.worktree}`
      : `in its worktree ${elsewhere.worktree}`;

/** Whose the workflow is, after its id, when it is a teammate's: ` (ana@team.example's)`; nothing when it is yours. */
export const whoseWords = (elsewhere: Elsewhere | null) =>
  elsewhere?.owner ? ` (${elsewhere.owner}'s)` : '';

/** Where the person goes on with a workflow an agent's hooks follow: its conversation still open here, or a new one. */
const goOnWhere = (agent: string, open: boolean | null, elsewhere: Elsewhere | null = null) =>
  open === true
    ? `send your next prompt in the ${agent} session still open ${hereOr(elsewhere)}`
    : open === false
      ? `open ${agent} ${hereOr(elsewhere)} and send a prompt`
      : `send your next prompt in the ${agent} session if it is still open, else open ${agent} ${hereOr(elsewhere)} and send one`;

/**
 * How a workflow an agent's hooks follow goes on once `baton resume` started its next session: a resume starts no
 * agent, and the briefing it prints is for one the person starts; that agent's conversation still open here takes it
 * up at its next prompt, or a new one at its start (`open`, as for `goOnLine`).
 */
export function resumedGoOnLine(
  id: string,
  following: string,
  open: boolean | null,
  elsewhere: Elsewhere | null = null,
) {
  return `to go on: ${goOnWhere(agentLabel(following), open, elsewhere)}: its hooks follow ${id} and go on with this session (the briefing below is for an agent you start yourself)`;
}

/**
 * What `baton pause` says: paused, already paused, or what the requested pause waits for; asked again while a request
 * waits, that the first request stands (its reason, how long ago it was made) and a new reason was not recorded.
 */
export function pauseText(r: PauseResult, now: number, elsewhere: Elsewhere | null = null): string {
  const id = `${r.workflow_id}${whoseWords(elsewhere)}`;
  if (r.outcome === 'already_paused') return `${id} is already paused (snapshot ${r.snapshot_id})`;
  if (r.outcome === 'paused')
    return `paused ${id} (snapshot ${r.snapshot_id})${r.warning ? `\nwarning: ${r.warning}` : ''}\n${goOnLine(r.workflow_id, r.following_agent, r.conversation_open, r.completes_at_next_start !== null, elsewhere)}`;
  // a turn under way is let finish: the agent's list may reach Baton only at its end (Codex's with the Stop)
  const tasks = `${r.waiting_for.join(', ')} ${r.waiting_for.length > 1 ? 'finish' : 'finishes'}`;
  const turn = r.waiting_for_turn
    ? `the ${agentLabel(r.waiting_for_turn.agent)} turn under way (session ${r.waiting_for_turn.session_number})`
    : null;
  const waiting = !turn
    ? `it pauses when ${tasks}`
    : r.waiting_for.length
      ? `it pauses when ${tasks} or when ${turn} ends, whichever comes first`
      : `${turn} is let finish: the pause takes effect when the agent's turn ends`;
  const req = r.pause_request;
  const timeout = req?.timeout_ms ? formatSpan(req.timeout_ms) : null;
  const then = `${waiting}, or by force once ${timeout ? `${timeout} have passed (the request's timeout, \`baton pause --pause-timeout\`)` : "the request's timeout has passed (`baton pause --pause-timeout`, default 5m)"}; \`baton pause --force\` pauses now, \`baton resume\` withdraws the request`;
  if (r.outcome === 'requested' || !req) return `pause requested for ${id}: ${then}`;
  const why = req.reason === null ? 'no reason given' : `reason: ${req.reason}`;
  const ago = formatAgo(now - Date.parse(req.requested_at));
  return [
    `a pause is already requested for ${id} (${why}, ${ago}): ${then}`,
    ...(r.ignored_reason === null
      ? []
      : [
          `the new reason (${r.ignored_reason}) was not recorded: the first request stands; \`baton pause --force --reason <text>\` pauses now with it`,
        ]),
  ].join('\n');
}

/** What `baton resume` says when it withdrew a pause request still waiting: the workflow goes on. */
export function pauseWithdrawnText(
  r: Extract<PersonResumeResult, { outcome: 'pause_withdrawn' }>,
  elsewhere: Elsewhere | null = null,
): string {
  const why = r.pause_request.reason === null ? '' : ` (reason: ${r.pause_request.reason})`;
  return `pause request withdrawn for ${r.workflow_id}${whoseWords(elsewhere)}${why}: the workflow goes on`;
}
