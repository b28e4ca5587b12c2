import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { patchText } from '../../../core/tool-file-changes.js';

/**
 * Dependencies the session adds to its project: by an edit of a package manifest (package.json, mix.exs,
 * Cargo.toml, pyproject.toml, requirements*.txt, go.mod, Gemfile), the names on added lines that were not there
 * before (a version bump of a dependency already listed is not a new one; whole-file writes are left out: without the
 * old text nothing says what was added), and by a package manager's command that adds named packages.
 */

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Keys of the manifests that look like dependencies but are not. */
const notDependencies = new Set([
  'version',
  'name',
  'node',
  'npm',
  'edition',
  'rust-version',
  'resolver',
  'python',
  'requires-python',
  'go',
  'toolchain',
]);

/** A dependency's name on one manifest line, by manifest file name. */
const namePatterns: [RegExp, RegExp][] = [
  [
    /(^|\/)package\.json$/,
    /^\s*"(@?[\w.-]+(?:\/[\w.-]+)?)"\s*:\s*"(?:[\^~>=<]*\d|workspace:|npm:|github:|file:|latest)/,
  ],
  [/(^|\/)mix\.exs$/, /^\s*\{:(\w+),\s*(?:"|github:|git:|path:)/],
  [/(^|\/)Cargo\.toml$/, /^\s*([\w-]+)\s*=\s*(?:"[\^~=<>]*\d|\{\s*(?:version|path|git)\b)/],
  [/(^|\/)pyproject\.toml$/, /^\s*"([A-Za-z][\w.-]*)(?:\[[^\]]*\])?\s*(?:[<>=!~]=?|@)[^"]*",?\s*$/],
  [/(^|\/)requirements[\w.-]*\.txt$/, /^\s*([A-Za-z][\w.-]*)(?:\[[^\]]*\])?\s*(?:[<>=!~]=|@)/],
  [/(^|\/)go\.mod$/, /^\s*(?:require\s+)?([\w.-]+\.[\w.-]+\/[\w./-]+)\s+v\d/],
  [/(^|\/)Gemfile$/, /^\s*gem\s+['"]([\w-]+)['"]/],
];

function namesIn(text: string, pattern: RegExp): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const name = pattern.exec(line)?.[1];
    if (name && !notDependencies.has(name.toLowerCase())) names.add(name);
  }
  return names;
}

/** Old and new text per edited file, from Edit / MultiEdit input or an apply_patch patch. */
function changes(entry: TranscriptEntry): { path: string; before: string; after: string }[] {
  const input = obj(entry.tool?.input);
  const path = str(input.file_path) || str(input.path);
  if (path && (typeof input.new_string === 'string' || Array.isArray(input.edits))) {
    const edits = Array.isArray(input.edits) ? input.edits.map(obj) : [input];
    return [
      {
        path,
        before: edits.map((e) => str(e.old_string) || str(e.old_str)).join('\n'),
        after: edits.map((e) => str(e.new_string) || str(e.new_str)).join('\n'),
      },
    ];
  }
  const patch =
    entry.tool?.name === 'apply_patch' || entry.tool?.name === 'exec' ? patchText(entry.tool.input) : null;
  if (!patch) return [];
  return patch
    .split(/^\*\*\* Update File: /m)
    .slice(1)
    .map((chunk) => {
      const [first = '', ...rest] = chunk.split('\n');
      const lines = rest.filter((l) => !l.startsWith('***'));
      return {
        path: first.trim(),
        before: lines
          .filter((l) => l.startsWith('-') || l.startsWith(' '))
          .map((l) => l.slice(1))
          .join('\n'),
        after: lines
          .filter((l) => l.startsWith('+') || l.startsWith(' '))
          .map((l) => l.slice(1))
          .join('\n'),
      };
    });
}

/** The dependencies a successful edit added, with the manifest they went into. */
export function addedDependencies(entry: TranscriptEntry): { manifest: string; names: string[] }[] {
  const out: { manifest: string; names: string[] }[] = [];
  for (const { path, before, after } of changes(entry)) {
    const pattern = namePatterns.find(([file]) => file.test(path))?.[1];
    if (!pattern) continue;
    const old = namesIn(before, pattern);
    const names = [...namesIn(after, pattern)].filter((n) => !old.has(n));
    if (names.length > 0) out.push({ manifest: path.split('/').at(-1) ?? path, names });
  }
  return out;
}

/** A package manager's command that adds the packages named after it to the project. */
const addCommand =
  /^(?:npm (?:install|i|add)|pnpm (?:add|install|i)|yarn add|bun (?:add|install|i)|deno add|(?:python3? -m )?pip3? install|uv (?:add|pip install)|poetry add|pdm add|rye add|pipenv install|cargo add|go get|gem install|bundle add|composer require|(?:flutter|dart) pub add|npx expo install|mix igniter\.install|dotnet add package)\s+(.*)$/;
/** Options that take the next word as their value (a requirements file, a folder, a workspace filter, a registry). */
const valued =
  /^(?:-r|--requirement|-c|--constraint|-C|--cwd|--dir|--prefix|--filter|-F|--registry|--index-url|-i|--workspace|--source|--version)$/;
/** Installed for the machine or the user, not for the project, or not installed at all. */
const notAdded = /^(?:-g|--global|--user|--system|--dry-run|--dry)$/;

/**
 * The packages one shell command adds (`npm install -D vitest`, `bun add -d oxlint`, `pip install "requests>=2"`,
 * `composer require monolog/monolog`): none for a requirements file, a global install, a dry run or a bare
 * `npm install`; the words after a redirection are not names.
 */
export function installedDependencies(segment: string): string[] {
  const command = segment.trim();
  const rest = addCommand.exec(command)?.[1];
  if (!rest) return [];
  // npm's -w names a workspace; pnpm's -w (the workspace root) takes no value
  const takesValue = (w: string) => valued.test(w) || (w === '-w' && command.startsWith('npm '));
  const names: string[] = [];
  const words = rest.split(/\s+/).map((w) => w.replace(/^(['"])(.*)\1$/, '$2'));
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (/^(?:\d*>|&>|<)/.test(word)) break;
    if (notAdded.test(word)) return [];
    if (takesValue(word)) {
      if (/^(?:-r|--requirement)$/.test(word)) return [];
      i++;
      continue;
    }
    // `pip install --upgrade pip` updates the installer, not the project
    if (/^[@\w][\w@/.:=<>~^+[\],-]*$/.test(word) && word !== 'pip') names.push(word);
  }
  return names;
}
