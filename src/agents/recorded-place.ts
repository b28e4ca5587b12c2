import { isAbsolute, relative } from 'node:path';
import type { RecordedPlace } from '../core/context/resume-context.js';
import type { ImportMark } from '../core/schemas/state.js';
import { branchOf, cwdOf } from './parser-state.js';

/** `a` is `b` or a folder inside it, or the reverse (an agent started in a subfolder of the same project). */
export function nested(a: string, b: string): boolean {
  const inside = (rel: string) => rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  return inside(relative(a, b)) || inside(relative(b, a));
}

/**
 * Where the transcript a workflow imported last was recorded (its parse state keeps the folder and the branch), and
 * whether that folder is outside the worktree; null when its transcript says neither.
 */
export function recordedPlace(
  imports: Readonly<Record<string, ImportMark>>,
  worktree: string,
): RecordedPlace | null {
  const latest = Object.values(imports).at(-1);
  if (!latest) return null;
  const cwd = cwdOf(latest.parser_state);
  const branch = branchOf(latest.parser_state);
  if (cwd === null && branch === null) return null;
  return { cwd, branch, elsewhere: cwd !== null && !nested(cwd, worktree) };
}
