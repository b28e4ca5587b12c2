import type { SideEffectKind } from '../schemas/runtime.js';

/** A completed tool call as the runner sees it. */
export interface ToolAction {
  name: string;
  input: unknown;
  is_error: boolean | null;
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

const fileTools =
  /^(write|edit|multiedit|notebookedit|apply_patch|str_replace_based_edit_tool|str_replace_editor|create_file)$/i;
const shellTools = /^(bash|shell|exec_command|local_shell|command_execution)$/i;

/**
 * Which completed tool actions have effects outside the conversation that must not be repeated after a resume:
 * commits, pushes, PRs, migrations (from shell commands) and file writes (from edit tools). Failed calls have none.
 */
export function classifySideEffect(a: ToolAction): { kind: SideEffectKind; summary: string } | null {
  if (a.is_error === true) return null;
  if (shellTools.test(a.name)) {
    const cmd = field(a.input, 'command', 'cmd') ?? str(a.input);
    if (!cmd) return null;
    for (const [re, kind] of shellRules) if (re.test(cmd)) return { kind, summary: cmd.slice(0, 300) };
    return null;
  }
  // Anthropic's text editor tool also reads (`command: "view"`): a read writes nothing
  if (fileTools.test(a.name) && field(a.input, 'command') !== 'view') {
    const path = field(a.input, 'file_path', 'path', 'notebook_path');
    const patchFiles = str(a.input)?.match(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm);
    const target = path ?? patchFiles?.map((l) => l.replace(/^\*\*\* \w+ File: /, '')).join(', ') ?? null;
    return { kind: 'file_write', summary: `${a.name} ${target ?? '(file)'}` };
  }
  return null;
}
