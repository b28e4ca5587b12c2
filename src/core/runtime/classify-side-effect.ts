import { commitSummary } from '../context/done-commits.js';
import { fileChangeSummary, pathInWorktree } from '../context/file-change.js';
import { amending, committing, printedCommits } from '../git-commits.js';
import type { SideEffectKind } from '../schemas/runtime.js';
import { toolFileChanges } from '../tool-file-changes.js';

/** A completed tool call as the runner sees it. */
export interface ToolAction {
  name: string;
  input: unknown;
  is_error: boolean | null;
  /** What the tool answered (git's `[branch hash] subject` line, Write's `File created successfully`). */
  output: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const field = (input: unknown, ...keys: string[]) => {
  if (typeof input !== 'object' || input === null) return null;
  for (const k of keys) {
    const v = (input as Record<string, unknown>)[k];
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ');
  }
  return null;
};

const shellRules: [RegExp, SideEffectKind][] = [
  [/\bgit\s+(?:-C\s+\S+\s+)?commit\b/, 'commit'],
  [/\bgit\s+(?:-C\s+\S+\s+)?push\b/, 'push'],
  [/\bgh\s+pr\s+(?:create|merge)\b/, 'pr'],
  [
    /\b(?:prisma\s+migrate|alembic\s+upgrade|knex\s+migrate|rails\s+db:migrate|manage\.py\s+migrate|sequelize\s+db:migrate|npm\s+run\s+migrate)\b/,
    'migration',
  ],
];

const shellTools = /^(bash|shell|exec_command|local_shell|command_execution)$/i;

/** A side effect of one tool call, as the ledger records it. */
export interface FoundSideEffect {
  kind: SideEffectKind;
  summary: string;
}

/**
 * Which completed tool actions have effects outside the conversation that must not be repeated after a resume, said
 * as a transcript's import says them: the commits git printed (`<hash> <subject>`; else the command, for commits,
 * pushes, PRs and migrations), and each file an edit tool created, edited or deleted (`created src/a.ts`: relative to
 * `worktree` when inside it, a path outside it as it is). Failed calls have none.
 */
export function classifySideEffects(a: ToolAction, worktree: string | null = null): FoundSideEffect[] {
  if (a.is_error === true) return [];
  if (shellTools.test(a.name)) {
    const cmd = field(a.input, 'command', 'cmd') ?? str(a.input);
    if (!cmd) return [];
    const made = committing.test(cmd) ? printedCommits(a.output) : [];
    if (made.length) {
      // an amend's replaced commit is one recorded before: found among them when the context is compiled
      const amends = amending.test(cmd) ? 'earlier' : undefined;
      return made.map((c) => ({ kind: 'commit', summary: commitSummary(c.hash, c.subject, amends) }));
    }
    for (const [re, kind] of shellRules) if (re.test(cmd)) return [{ kind, summary: cmd.slice(0, 300) }];
    return [];
  }
  const summaries = toolFileChanges(a.name, a.input, a.output).map(([change, path]) =>
    fileChangeSummary(change, pathInWorktree(path, worktree)),
  );
  // a change once a call (a patch that names a file twice), as the import keeps it
  return summaries
    .filter((summary, i) => summary !== summaries[i - 1])
    .map((summary) => ({ kind: 'file_write', summary }));
}
