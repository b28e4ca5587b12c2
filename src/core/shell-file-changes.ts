import type { FileChange } from './context/file-change.js';
import { heredoc, withoutHeredocBodies } from './heredoc.js';
import { scriptChanges, scriptLanguage } from './script-writes.js';
import { splitCommand } from './split-command.js';

/**
 * The patch a shell command hands to Codex's apply_patch: as its argument (`["apply_patch", "*** Begin Patch..."]`,
 * whose last word callCommands gives) or on its standard input (`apply_patch <<'EOF' ... EOF`).
 */
export function shellPatch(command: string): string | null {
  // the argv form's last word is the patch itself
  if (command.startsWith('*** Begin Patch')) return command;
  if (!/(?:^|[\s;&|(])apply_patch\b/.test(command)) return null;
  const start = command.indexOf('*** Begin Patch');
  return start >= 0 ? command.slice(start) : null;
}

/** Where a shell redirection writes: `> file` (whole) and `>> file` (appended); not `2>`, `&>`, `>&2`. */
const redirection = /(?<![\d&>])(>>?)[ \t]*("[^"]+"|'[^']+'|[^\s|;&<>()'"]+)/g;
/** Any redirection, with its target: not an argument of the program. */
const anyRedirection = /\d*(?:>>?|<<?|&>)&?[ \t]*(?:"[^"]*"|'[^']*'|[^\s|;&<>()'"]+)/g;
/** A here-document's opening (`<<'EOF'`, `<<-EOF`), as withoutHeredocBodies leaves it in the line. */
const heredocOpening = /<<-?[ \t]*\\?['"]?[A-Za-z_]/g;
/** Quoted text that is no redirection's target: a `>` in it is text (`git commit -m "a > b"`, `node -e '...'`). */
const quotedText = /(?<!>\s*)(?:"(?:[^"\\]|\\.)*"|'[^']*')/g;
/** A shell word: quoted parts and escaped characters (`Application\ Support`) kept in it. */
const shellWord = /(?:\\.|"[^"]*"|'[^']*'|[^\s\\"'])+/g;
/**
 * Paths that are no work of the session's: scratch space (a test log in /tmp), devices, and words the shell expands
 * (a variable, a glob, a command substitution), which the transcript does not resolve.
 */
const notWork = /^\/(?:tmp|dev|proc|private\/tmp|var\/folders|var\/tmp)\/|[$*?`]/;
/** A word as the program sees it: quotes and escapes taken off. */
const unquote = (w: string) =>
  w.replace(/"([^"]*)"|'([^']*)'|\\(.)/g, (_, a?: string, b?: string, c?: string) => a ?? b ?? c ?? '');
/** Where `cp a/b dir/` puts its source: the source's name in the folder. */
const under = (dir: string, source: string) =>
  `${dir}/${source.replace(/\/+$/, '').split('/').at(-1) ?? source}`;

/** A path with its `.` and `..` steps taken (`docs/../README.md` is `README.md`) and no trailing slash. */
function normal(path: string): string {
  const out: string[] = [];
  for (const [i, step] of path.split('/').entries()) {
    if (step === '.' || (step === '' && i > 0)) continue;
    const back = out.at(-1);
    if (step === '..' && back !== undefined && back !== '..' && back !== '' && back !== '~') out.pop();
    else out.push(step);
  }
  return out.join('/') || '.';
}

/** A path not relative to a folder: rooted (`/`, `~`, `\\`) or on a drive (`C:\\`, `C:/`). */
const rooted = /^(?:[/~\\]|[A-Za-z]:[/\\])/;

/** Where `path` is when named in `dir` (a relative one under it), its `.` and `..` steps taken. */
export const inFolder = (dir: string, path: string) =>
  normal(dir && !rooted.test(path) ? `${dir}/${path}` : path);

/**
 * The files a shell command line changes: what `rm` and `git rm` delete (not `git rm --cached`, which untracks), what
 * `cp` and `mv` write (into a folder, `.` or one named with a trailing slash, the sources' names in it; a moved file
 * is deleted where it was), `>` and `>>` redirections and `tee`'s files (a whole write is `created`, an append
 * `edited`). A relative path after `cd dir` is under dir; nothing after a `cd` into scratch space counts. Flags,
 * here-document bodies (content, not commands), subshell parentheses, a trailing `&` and quoted text are no paths.
 */
export function shellChanges(command: string): [FileChange, string][] {
  const out: [FileChange, string][] = [];
  let dir = '';
  const at = (path: string) => inFolder(dir, path);
  // the here-documents' bodies, in order: a part that opens one is handed the next
  const bodies = [...command.matchAll(heredoc)].map((m) => m[4] ?? '');
  for (const part of splitCommand(withoutHeredocBodies(command))) {
    const text = part.text.replace(/^\(+\s*|\s*\)+$/g, '').replace(/\s&$/, '');
    const opened = bodies.splice(0, text.match(heredocOpening)?.length ?? 0);
    const words = (text.replace(anyRedirection, ' ').match(shellWord) ?? []).map(unquote);
    const [program = '', ...rest] = words;
    const args = rest.filter((w) => !w.startsWith('-') && w !== '&');
    if (program === 'cd') {
      dir = args[0] ? at(args[0]) : '';
      continue;
    }
    if (notWork.test(dir)) continue;
    const language = scriptLanguage(program);
    const inline = rest.findIndex((w) => w === '-c' || w === '-e');
    const script = opened[0] ?? (inline >= 0 ? rest[inline + 1] : undefined);
    if (language && script)
      for (const [change, path] of scriptChanges(language, script)) out.push([change, at(path)]);
    for (const m of text.replace(quotedText, '""').matchAll(redirection))
      out.push([m[1] === '>>' ? 'edited' : 'created', at(unquote(m[2] ?? ''))]);
    const git = program === 'git' && rest[0] === 'rm';
    if ((program === 'rm' || git) && !rest.includes('--cached'))
      for (const f of git ? args.slice(1) : args) out.push(['deleted', at(f)]);
    const appends = rest.includes('-a') || rest.includes('--append');
    if (program === 'tee') for (const f of args) out.push([appends ? 'edited' : 'created', at(f)]);
    if ((program !== 'cp' && program !== 'mv') || args.length < 2) continue;
    const target = args.at(-1) as string;
    const sources = args.slice(0, -1);
    const into = /\/$|^\.{1,2}$/.test(target) || sources.length > 1;
    for (const source of sources) {
      if (program === 'mv') out.push(['deleted', at(source)]);
      out.push(['created', at(into ? under(target, source) : target)]);
    }
  }
  return out.filter(([, path]) => path !== '' && path !== '.' && !notWork.test(path));
}
