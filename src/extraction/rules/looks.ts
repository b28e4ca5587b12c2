import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { commandParts, shellCommands } from './shell-command.js';

/**
 * What only reads: the tools that read or list files, and shell commands whose every program inspects. The error
 * rules read a failed look as a probe; the decision rules read a turn of looks as one that changed nothing.
 */

/** Tools that read or list files. */
export const readTools = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'view',
  'read_file',
  'list_dir',
]);
/**
 * Programs that print what files, logs or a forge hold (`docker logs`, `journalctl`, `gh pr checks`, `gh pr view`...).
 */
const readPrograms =
  /^(docker (?:compose )?logs|docker-compose logs|kubectl logs|journalctl|gh (?:pr|issue|run|release|repo|workflow) (?:view|list|checks|status|diff)\b|heroku logs|ls|cat|nl|head|tail|less|sed -n|grep|egrep|rg|ag|find|fd|stat|file|wc|test|\[|tree|du|readlink|realpath|which|type|sort|uniq|cut|jq|diff|cmp|basename|dirname|pwd|git (?:show|log|diff|status|ls-files|blame|rev-parse|branch|grep))\b/;

/** Every program of a command line is a read-only inspection (ls, cat, rg, git log...). */
function readOnly(command: string): boolean {
  const parts = commandParts(command).map((p) =>
    p.replace(/^(?:\w+=\S*\s+)+/, '').replace(/^cd \S+$/, 'true'),
  );
  // printing and waiting do nothing of their own (`sleep 120 && gh pr checks 234`)
  return (
    parts.length > 0 && parts.every((p) => readPrograms.test(p) || /^(echo|true|printf|sleep)\b/.test(p))
  );
}

/** A shell call whose every command only inspects (ls, cat, git status...): a look around, not an attempt. */
export function looksOnly(entry: TranscriptEntry): boolean {
  const commands = shellCommands(entry);
  return commands.length > 0 && commands.every(readOnly);
}
