import type { ToolOutcome } from './call-text.js';
import type { FileChange } from './context/file-change.js';
import { shellChanges, shellPatch } from './shell-file-changes.js';
import { patchChanges, toolFileChanges } from './tool-file-changes.js';

/** A file a tool call changed, and the tool that changed it (`apply_patch` for a patch, whatever ran it). */
export interface CallFileChange {
  change: FileChange;
  path: string;
  tool: string;
}

/**
 * The files one successful tool call created, edited and deleted, in order, each path as the call names it: an edit
 * tool's (toolFileChanges: Write, Edit, apply_patch as a tool or a code-mode cell's patch...), a patch a shell command
 * hands to apply_patch, and the shell's own changes (`rm`, `cp`, `mv`, `>`, `tee`, inline scripts: shellChanges).
 * A failed call changed none; a change that names no file is none.
 */
export function callFileChanges(call: ToolOutcome): CallFileChange[] {
  if (call.failed) return [];
  const name = call.tool;
  // a code-mode cell's patch is apply_patch's
  const editor = name === 'exec' ? 'apply_patch' : name;
  const out = toolFileChanges(name, call.input, call.output).map(([change, path]) => ({
    change,
    path,
    tool: editor,
  }));
  for (const command of call.commands) {
    // a patch's lines are file content, not commands
    const patch = shellPatch(command);
    const changes = patch ? patchChanges(patch) : shellChanges(command);
    const tool = patch ? 'apply_patch' : name;
    for (const [change, path] of changes) out.push({ change, path, tool });
  }
  return out.filter((c) => c.path !== '');
}
