import { existsSync, readFileSync } from 'node:fs';
import { BLOCK_BEGIN, onlyBlockDiffers } from '../../core/baton-block.js';
import { agentFiles, type Homes, type InitAgent } from './agent-files.js';
import { committedText } from './git-exclude.js';
import { batonHooksIn, removeBatonHooks } from './hooks-file.js';
import { writeText } from './instructions-block.js';
import { isObject } from './json-file.js';
import { manifestPath, readManifest } from './manifest.js';

/** The files the default set-up writes that are the `--shared` set-up's too (CLAUDE.md, AGENTS.md, .codex/hooks.json). */
export type TeamFile = 'hooks' | 'instructions';

/** Whether a file's text holds Baton's part: its instructions block, or one of its hooks. */
function holdsBaton(what: TeamFile, text: string | null): boolean {
  if (text === null) return false;
  if (what === 'instructions') return text.includes(BLOCK_BEGIN);
  try {
    const settings: unknown = JSON.parse(text);
    return isObject(settings) && batonHooksIn(settings).size > 0;
  } catch {
    return false;
  }
}

/**
 * Why the team's set-up holds Baton's part of a file the default (personal) set-up wrote too, so that undoing the
 * personal one leaves it: the `--shared` set-up of this worktree (recorded in Baton's home) is there for that agent,
 * or the repository's last commit holds it (a teammate's `baton init --shared`). Null when neither, or the file holds
 * no part of Baton's now.
 */
export function teamHolds(
  home: string,
  root: string,
  agent: InitAgent,
  what: TeamFile,
  homes: Homes,
): string | null {
  const path = agentFiles(agent, 'local', root, homes)[what];
  if (path !== agentFiles(agent, 'shared', root, homes)[what]) return null;
  if (!holdsBaton(what, existsSync(path) ? readFileSync(path, 'utf8') : null)) return null;
  if (readManifest(manifestPath(home, root, 'shared'))?.agents.includes(agent))
    return "the --shared set-up's too";
  if (holdsBaton(what, committedText(root, path))) return "committed with the repository: the team's set-up";
  return null;
}

/** The settings a hooks file's text holds but Baton's hooks, as JSON text to compare; null when it is not JSON. */
function withoutHooks(text: string): string | null {
  try {
    const settings: unknown = JSON.parse(text);
    return isObject(settings) ? JSON.stringify(removeBatonHooks(settings).value) : null;
  } catch {
    return null;
  }
}

/**
 * Puts back the last commit's text of a file the team's set-up holds where it differs from it only by Baton's part
 * (the personal set-up wrote its own command there, `baton init --command ...`): whether it did. A change of the
 * user's own beside it keeps the file as it is.
 */
export function putBackCommitted(root: string, path: string, what: TeamFile): boolean {
  const head = committedText(root, path);
  const now = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (head === null || now === null || head === now || !holdsBaton(what, head)) return false;
  const same =
    what === 'instructions'
      ? onlyBlockDiffers(head, now)
      : withoutHooks(head) !== null && withoutHooks(head) === withoutHooks(now);
  if (same) writeText(path, head);
  return same;
}

/** What an undo of the personal set-up says of a file it leaves to the team's (`teamHolds` says why). */
export const teamKept = (why: string, putBack: boolean) =>
  `kept: ${why}${putBack ? ", Baton's part put back as committed (this set-up had written its own command there)" : ''} (\`baton init --undo --shared\` removes it)`;
