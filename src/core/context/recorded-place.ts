import type { ImportMark } from '../schemas/state.js';
import type { RecordedPlace } from './resume-context.js';

const trimmed = (p: string) => p.replace(/[\\/]+$/, '');
/** `inner` is `outer` or a folder inside it (POSIX or Windows separators). */
const within = (inner: string, outer: string) =>
  inner === outer || inner.startsWith(`${outer}/`) || inner.startsWith(`${outer}\\`);

/** `a` is `b` or a folder inside it, or the reverse (an agent started in a subfolder of the same project). */
export function nested(a: string, b: string): boolean {
  const [x, y] = [trimmed(a), trimmed(b)];
  return within(x, y) || within(y, x);
}

/**
 * Where the transcript a workflow imported last was recorded (the folder and branch its import noted), and whether
 * that folder is outside the worktree; null when its import noted neither.
 */
export function recordedPlace(
  imports: Readonly<Record<string, ImportMark>>,
  worktree: string,
): RecordedPlace | null {
  const latest = Object.values(imports).at(-1)?.recorded_in;
  if (!latest || (latest.cwd === null && latest.branch === null)) return null;
  return { ...latest, elsewhere: latest.cwd !== null && !nested(latest.cwd, worktree) };
}
