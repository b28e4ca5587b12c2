import { clip } from './clip.js';
import type { WorkflowState } from './schemas/state.js';

/**
 * Another person's unfinished workflow that a conversation here could be mistaken for (on a store a team shares): one
 * of this folder's path made under another git identity (their clone at the same path, on their machine), or one of
 * their clone elsewhere on the branch checked out here (they pushed it, this clone pulled it). It stays theirs: it is
 * pointed to, never joined.
 */
export interface TeammateWork {
  workflow_id: string;
  owner: string;
  /** The user's request it followed (its issue), else its title. */
  title: string;
  status: WorkflowState['status'];
  updated_at: string;
  /** The branch its work was last seen on (null: not known). */
  branch: string | null;
  /** true: a workflow of this folder's path; false: of another folder, on the branch checked out here. */
  same_folder: boolean;
  /** How its agent's last turn stopped, when a usage limit stopped it ("stopped by a usage limit ..."); else null. */
  stopped: string | null;
}

/** One teammate's workflow in a sentence: whose, where, what, how it stands and since when, and how to read it. */
export function teammateWorkWords(t: TeammateWork): string {
  const where = t.same_folder ? 'in this folder' : `on this branch${t.branch ? ` (${t.branch})` : ''}`;
  const state = [t.status.replace('_', ' '), t.stopped].filter(Boolean).join(', ');
  const when = `${t.updated_at.slice(0, 16).replace('T', ' ')} UTC`;
  return `${t.owner} has a workflow ${where}: ${t.workflow_id} "${clip(t.title, 80)}" (${state}; last updated ${when}); \`baton context -w ${t.workflow_id}\` to read it`;
}
