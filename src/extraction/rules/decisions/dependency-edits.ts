import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { patchText } from '../../session/file-effects.js';

/**
 * Dependencies an edit adds to a package manifest (package.json, mix.exs, Cargo.toml, pyproject.toml,
 * requirements*.txt, go.mod, Gemfile): the names on added lines that were not there before. A version bump of a
 * dependency already listed is not a new one. Whole-file writes are left out: without the old text nothing says
 * what was added.
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
