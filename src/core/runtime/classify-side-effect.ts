import { callFileChanges } from '../call-file-changes.js';
import { callCommands, type ToolOutcome } from '../call-text.js';
import { commitSummary } from '../context/done-commits.js';
import { fileChangeSummary, pathInWorktree } from '../context/file-change.js';
import { gitEffects } from '../git-effects.js';
import type { SideEffectKind } from '../schemas/runtime.js';

/** A completed tool call as the runner sees it. */
export interface ToolAction {
  name: string;
  input: unknown;
  is_error: boolean | null;
  /** What the tool answered (git's `[branch hash] subject` line, Write's `File created successfully`). */
  output: string;
  /** A code-mode cell whose commands are calls of their own (callCommands): their effects are theirs. */
  commands_apart?: boolean;
}

/** A database migration run: the ledger keeps its command (a transcript's import does not read these). */
const migrating =
  /\b(?:prisma\s+migrate|alembic\s+upgrade|knex\s+migrate|rails\s+db:migrate|manage\.py\s+migrate|sequelize\s+db:migrate|npm\s+run\s+migrate)\b/;

/** A side effect of one tool call, as the ledger records it. */
export interface FoundSideEffect {
  kind: SideEffectKind;
  summary: string;
}

/**
 * Which effects a completed tool call had outside the conversation that must not be repeated after a resume, said
 * as a transcript's import says them, by the same readers (core's gitEffects and callFileChanges): the commits git
 * printed (`<hash> <subject>`, an amend's replaced commit `earlier`: the context finds which) or a quiet commit the
 * command then showed, pushes (`pushed main -> main (up to abc1234)`), pull requests opened and merged, branches and
 * worktrees made and removed, and each file an edit tool or a shell command (`rm`, `mv`, `>`, `tee`...) created,
 * edited or deleted (`created src/a.ts`: relative to `worktree` when inside it, a path outside it as it is); then a
 * migration, by its command. A failed call has only the commits git printed.
 */
export function classifySideEffects(a: ToolAction, worktree: string | null = null): FoundSideEffect[] {
  const commands = callCommands(a.name, a.input, a.commands_apart === true);
  const call: ToolOutcome = {
    tool: a.name,
    input: a.input,
    commands,
    output: a.output,
    failed: a.is_error === true,
  };
  const git = gitEffects(call);
  const out: FoundSideEffect[] = git.commits.map((c) => ({
    kind: 'commit',
    summary: commitSummary(c.hash, c.subject, c.amends ? 'earlier' : undefined),
  }));
  out.push(...git.effects);
  const files = callFileChanges(call).map(({ change, path }) =>
    fileChangeSummary(change, pathInWorktree(path, worktree)),
  );
  // each change of a call once (a patch that names a file twice), as the import keeps it
  for (const [i, summary] of files.entries())
    if (summary !== files[i - 1]) out.push({ kind: 'file_write', summary });
  const migration = call.failed ? undefined : commands.find((c) => migrating.test(c));
  if (migration) out.push({ kind: 'migration', summary: migration.slice(0, 300) });
  return out;
}
