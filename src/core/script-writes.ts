/**
 * The files a script run inline writes and deletes: a Python or Node.js program given on the command line
 * (`python3 - <<'EOF' ... EOF`, `python3 -c "..."`, `node -e '...'`), as agents often edit files with one (read a
 * file, replace a line, write it back). Only what the script names by a literal (a string, or a name a string was
 * assigned to) is read: a path computed at run time is not known from the transcript.
 */

export type ScriptChange = 'created' | 'edited' | 'deleted';
type Language = 'python' | 'js';

/** The language of the programs whose inline scripts are read (null for any other program). */
export function scriptLanguage(program: string): Language | null {
  const name = program.split('/').at(-1) ?? program;
  if (/^python(?:\d(?:\.\d+)?)?$/.test(name)) return 'python';
  if (name === 'node' || name === 'bun' || name === 'deno') return 'js';
  return null;
}

/** A string literal (single or double quotes, no escapes) or a name: named groups `lit` and `name`. */
const ARG = String.raw`(?:(?<q>['"])(?<lit>[^'"\n\\]+)\k<q>|(?<name>[A-Za-z_]\w*))`;

/** `name = 'path'` (Python), `const name = "path"` (JS), or `name = Path('path')`: the names a path was given. */
function namedPaths(script: string): Map<string, string> {
  const names = new Map<string, string>();
  const assignment =
    /^[ \t]*(?:(?:const|let|var)[ \t]+)?([A-Za-z_]\w*)[ \t]*=[ \t]*(?:Path\()?(['"])([^'"\n\\]+)\2\)?[ \t]*;?[ \t]*$/gm;
  for (const m of script.matchAll(assignment)) names.set(m[1] as string, m[3] as string);
  return names;
}

/** What a call does to the file it names: read it, write it whole, append to it, delete it. */
type Act = 'read' | 'write' | 'append' | 'delete';

/** A file call of the language, and what it does (`how`: from its match). */
interface Rule {
  pattern: RegExp;
  how: (groups: Record<string, string | undefined>) => Act;
}

const method = (m: string | undefined): Act =>
  m?.startsWith('read') ? 'read' : m === 'unlink' ? 'delete' : 'write';

const rules: Record<Language, Rule[]> = {
  python: [
    {
      // open(path), open(path, 'r'): read; open(path, 'w' | 'x'): written whole; open(path, 'a'): appended
      pattern: new RegExp(
        String.raw`\bopen\(\s*${ARG}\s*(?:,\s*(?:mode\s*=\s*)?['"](?<mode>[rwaxbt+]+)['"])?`,
        'g',
      ),
      how: ({ mode = 'r' }) => (mode.includes('a') ? 'append' : /[wx]/.test(mode) ? 'write' : 'read'),
    },
    {
      // Path(path).write_text(...), or p.write_text(...) after p = Path('...')
      pattern: new RegExp(
        String.raw`(?:\bPath\(\s*${ARG}\s*\)|(?<![\w.])(?<var>[A-Za-z_]\w*))\s*\.\s*(?<call>read_text|read_bytes|write_text|write_bytes|unlink)\(`,
        'g',
      ),
      how: ({ call }) => method(call),
    },
    { pattern: new RegExp(String.raw`\bos\.(?:remove|unlink)\(\s*${ARG}`, 'g'), how: () => 'delete' },
  ],
  js: [
    {
      pattern: new RegExp(
        String.raw`\b(?<call>readFile|writeFile|appendFile|rm|unlink)(?:Sync)?\(\s*${ARG}`,
        'g',
      ),
      how: ({ call }) =>
        call === 'readFile'
          ? 'read'
          : call === 'appendFile'
            ? 'append'
            : call === 'writeFile'
              ? 'write'
              : 'delete',
    },
  ],
};

/**
 * What the script does to files, in the order it says it: a file written whole that it read first is edited (the
 * read-replace-write of an edit), one it did not read is created; an appended one is edited.
 */
export function scriptChanges(language: Language, script: string): [ScriptChange, string][] {
  const names = namedPaths(script);
  const calls = rules[language]
    .flatMap((rule) => [...script.matchAll(rule.pattern)].map((m) => ({ m, rule })))
    .sort((a, b) => (a.m.index ?? 0) - (b.m.index ?? 0));
  const read = new Set<string>();
  const out: [ScriptChange, string][] = [];
  for (const { m, rule } of calls) {
    const g = m.groups ?? {};
    const path = g.lit ?? names.get(g.name ?? g.var ?? '') ?? null;
    if (!path) continue;
    const act = rule.how(g);
    if (act === 'read') read.add(path);
    else if (act === 'delete') out.push(['deleted', path]);
    else out.push([act === 'append' || read.has(path) ? 'edited' : 'created', path]);
  }
  return out;
}
