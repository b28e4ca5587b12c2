import { z } from 'zod';
import { ownedBy } from './workflow-owner.js';

/**
 * The latest pause, resume or abandon of a workflow asked by someone other than its owner (a teammate on a server or
 * database a team shares): `by` is the git email of the person who asked, as the event recorded it. The owner is told
 * it (`teammateActText`) by `baton status` and by their agent's next hook answer, so work stopped or restarted by
 * another person is never a silent surprise.
 */
export const TeammateAct = z.object({
  act: z.enum(['paused', 'asked to pause', 'resumed', 'resumed (its pause withdrawn)', 'abandoned']),
  by: z.string(),
  at: z.string(),
  reason: z.string().nullable(),
});
export type TeammateAct = z.infer<typeof TeammateAct>;

/** "paused by ben@team.example at 2026-12-07T14:00:00.000Z: ben testing": the one wording every surface uses. */
export const teammateActText = (a: TeammateAct): string =>
  `${a.act} by ${a.by} at ${a.at}${a.reason ? `: ${a.reason}` : ''}`;

/**
 * The person whose command asks a pause, resume or abandon: their git email, and whether they are the workflow's
 * owner, judged when the command runs (`isOwner`: git's mailmap too, so a person whose email changed since the
 * workflow began is still its owner), which the core, reading no git, cannot judge from the email alone.
 */
export interface Asker {
  email: string;
  owner: boolean;
}

/** What an event of a person's command records of them: `by`, their email, and `by_owner`, `Asker.owner`. */
export const askedBy = (a: Asker | undefined) => (a ? { by: a.email, by_owner: a.owner } : {});

/**
 * The act an event of a person's command makes the workflow's teammate act: one by someone else than its owner is
 * kept (`by` set, not the owner as `by_owner` says it was judged; an event older than `by_owner` compares the emails);
 * one by its owner clears it (they know); one asked by no person (a hook, a driver: `by` unset) leaves it as it was.
 */
export function nextTeammateAct(
  s: { owner?: string | null | undefined; teammate_act?: TeammateAct | null | undefined },
  act: TeammateAct['act'],
  asked: { by?: string | undefined; by_owner?: boolean | undefined },
  at: string,
  reason: string | null,
): TeammateAct | null | undefined {
  const { by } = asked;
  if (by === undefined) return s.teammate_act;
  return (asked.by_owner ?? ownedBy(s, by)) ? null : { act, by, at, reason };
}

/**
 * Why a person's pause, resume or abandon of a teammate's workflow is refused: whose it is, and how to do it anyway
 * (`--theirs` on the CLI, `theirs: true` over the API). `verb`: pause, resume, abandon, recover; `flags`: the rest of
 * the command that does it (a recovery's ` --option fresh`).
 */
const doing = { pause: 'pausing', resume: 'resuming', abandon: 'abandoning', recover: 'recovering' } as const;

export const theirWorkflowRefusal = (
  w: { id: string; owner: string },
  verb: keyof typeof doing,
  asker: string | null,
  flags = '',
) =>
  `${w.id} is ${w.owner}'s workflow, not yours (${asker ?? 'no git identity set here'}): ${doing[verb]} it would change their work without telling them first, so nothing was done. To ${verb} it anyway: \`baton ${verb} -w ${w.id}${flags} --theirs\` (over the API: \`"theirs": true\`); ${w.owner} is then told who did it`;

/**
 * The teammate act (`teammate_act`) made since the conversation of `agent` last had a session of the workflow, to tell
 * it and its user at its next prompt; null when there is none, or it was made before (the conversation was told, or
 * it began after). Read before the conversation is tied to the workflow's session again.
 */
export function teammateActSince(
  s: {
    teammate_act?: TeammateAct | null | undefined;
    sessions: { started_at: string; agent?: { name: string; session_id: string } | null | undefined }[];
  },
  agent: { name: string; session_id: string | null },
): TeammateAct | null {
  const act = s.teammate_act;
  if (!act || agent.session_id === null) return null;
  const mine = s.sessions.findLast(
    (x) => x.agent?.name === agent.name && x.agent.session_id === agent.session_id,
  );
  return mine && act.at > mine.started_at ? act : null;
}
