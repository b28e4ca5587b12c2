/**
 * Which tests a run ran, as far as its command line tells: a run that names test files or folders (`vitest run
 * src/a.test.ts`, `npm test -- tests/unit`, `pytest tests/test_a.py::test_x`) ran those alone; one that names none ran
 * them all. A failing test's name tells its file when the runner prints it (vitest's `src/b.test.ts > suite > name`,
 * pytest's `tests/test_b.py::test_x`); a name without its file (jest's `suite › name`, go's `TestX`) cannot be told
 * apart, and counts as run.
 */

/** A command-line word naming tests: a test file, a folder of tests, a pytest node id. */
const testPath =
  /(?:^|\/)(?:tests?|__tests__|specs?)(?:\/|$)|[._-](?:test|spec)s?\.\w+(?:::|$)|(?:^|\/)test_[^/]*\.py(?:::|$)|::/;
/** A test file's path: `a.test.ts`, `a_spec.rb`, `test_a.py`, or any file under `tests/`, `__tests__/`, `spec/`. */
const testFile =
  /[._-](?:test|spec)s?\.\w+$|(?:^|\/)test_[^/]*\.py$|(?:^|\/)(?:tests?|__tests__|specs?)\/.+\.\w+$/;
/** A configuration file given to an option (`--config tests/vitest.config.ts`), not tests to run. */
const configFile = /\.(?:config|conf)\.\w+$|\.(?:json|toml|ini|cfg|ya?ml)$/;
/** Options whose value is the next word. */
const takesValue =
  /^(?:-c|-p|--config|--root|--dir|--project|--reporter|--outputFile|--rootdir|--cov|--cov-config|--confcutdir|--basetemp|--workspace)$/;

/** Programs that run the script named next (`bash scripts/test.sh`, `node ./run-tests.mjs`). */
const interpreter = /^(?:(?:ba|z|da)?sh|node|python[\d.]*|tsx|ts-node|deno|bun|npx|ruby|perl|php)$/;

const unquoted = (w: string) =>
  w
    .replace(/^['"]|['"]$/g, '')
    .replace(/^\.\//, '')
    .replace(/\/+$/, '');

/** The tests a command line names, null when it names none (it runs them all). */
export function namedTests(command: string | null): string[] | null {
  if (!command) return null;
  // the runner's own words: not the `cd` before it, nor where its output goes
  const run = (command.split(/&&|\|\||;/).at(-1) ?? '').split(/\s\|\s/)[0] ?? '';
  const words = run
    .replace(/\s\d*[<>]+&?\s*\S+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const named: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w.startsWith('-')) {
      // a dotted option is a setting with its value next (vitest's `--coverage.include src/`)
      if (!w.includes('=') && (takesValue.test(w) || /^--\w+\.\w/.test(w))) i++;
      continue;
    }
    const path = unquoted(w);
    if (!path || configFile.test(path)) continue;
    // a bare `test` is a command (`npm test`, `go test`, `cargo test`), not a folder; a path not of tests is still
    // one the run was told (vitest takes part of a path: `vitest run src/parser`), unless it is the program itself
    const program =
      i === 0 || /(?:^|\/)(?:node_modules|bin)\//.test(path) || interpreter.test(words[i - 1] ?? '');
    if (!program && ((path !== 'test' && testPath.test(path)) || path.includes('/'))) named.push(path);
  }
  return named.length ? named : null;
}

/** The file a failing test's name begins with, null when it names none. */
export function fileOfTest(name: string): string | null {
  const head = name.split(/\s+>\s+|::|\s+›\s+/)[0]?.trim() ?? '';
  const file = head.split(/\s+/).at(-1)?.replace(/^\.\//, '') ?? '';
  return testFile.test(file) ? file : null;
}

/**
 * Whether a named path runs a file: the file's path holds it (vitest filters files by part of their path), it ends
 * with the file (an absolute path to it), or it is a folder the file is under (the path's last folders are the file's
 * first ones: `/home/me/app/tests` and `tests/test_a.py`).
 */
function runs(path: string, file: string): boolean {
  const p = path.split('::')[0] ?? path;
  if (file.includes(p) || p.endsWith(`/${file}`) || p === file) return true;
  const ps = p.split('/').filter(Boolean);
  const fs = file.split('/').filter(Boolean);
  for (let k = 1; k <= Math.min(ps.length, fs.length - 1); k++)
    if (ps.slice(-k).join('/') === fs.slice(0, k).join('/')) return true;
  return false;
}

/** The tests among `failing` (an earlier run's) that a run of `command` did not run again. */
export function notRunAgain(failing: readonly string[], command: string | null): string[] {
  const named = namedTests(command);
  if (!named) return [];
  return failing.filter((name) => {
    const file = fileOfTest(name);
    return file !== null && !named.some((p) => runs(p, file));
  });
}
