import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { callCommands } from '../../core/call-text.js';
import { mistyped } from '../../core/edit-distance.js';
import { splitCommand, unwrapShell } from '../../core/split-command.js';

const shellTools = new Set(['Bash', 'exec_command', 'shell', 'local_shell', 'write_stdin', 'bash', 'exec']);

/** Every shell command a tool call or result ran (one for a shell tool, several for a code-mode cell). */
export function shellCommands(entry: TranscriptEntry): string[] {
  const tool = entry.tool;
  return tool ? callCommands(tool.name, tool.input, tool.commands_apart === true) : [];
}

/** The shell command of a tool call/result (a cell's commands joined by " ; "), or null when it ran none. */
export function shellCommand(entry: TranscriptEntry): string | null {
  const commands = shellCommands(entry);
  if (commands.length > 0) return commands.join(' ; ');
  return entry.tool?.name && shellTools.has(entry.tool.name) && entry.tool.name !== 'exec' ? '' : null;
}

/** A command line's commands: split at &&, ||, ;, | and newlines outside quotes. */
export function commandParts(command: string): string[] {
  return splitCommand(command).map((p) => p.text);
}

/** The tool family used to decide whether a later call is "the same kind of attempt". */
export function toolFamily(entry: TranscriptEntry): string {
  return shellCommand(entry) !== null ? 'shell' : (entry.tool?.name ?? 'tool');
}

/** Tools by the job they do: a different tool doing the same job after a failure is getting past it another way. */
const toolPurposes: Record<string, string> = {
  Grep: 'search',
  Glob: 'search',
  grep_search: 'search',
  file_search: 'search',
  // Claude Code's LSP tool (goToDefinition, findReferences): finding code, as a grep does
  LSP: 'search',
  Write: 'write',
  Edit: 'write',
  MultiEdit: 'write',
  NotebookEdit: 'write',
  apply_patch: 'write',
  WebFetch: 'web',
  WebSearch: 'web',
  web_search: 'web',
  // Codex's multi-agent tools that hand an agent work: a follow-up to a running reviewer does what a spawn refused
  // ("agent thread limit reached") would have done
  spawn_agent: 'delegate',
  followup_task: 'delegate',
  send_input: 'delegate',
};
/** What a shell step does, by its program and subcommand (the first that matches names it). */
const words = (list: string) => new Set(list.split(' '));
const checkWords = words(
  'tsc vue-tsc typecheck type-check lint eslint biome stylelint vet golangci-lint staticcheck mypy pyright ruff flake8 pylint clippy check rubocop credo dialyzer shellcheck',
);
const buildWords = words('build compile assemble bundle webpack rollup esbuild');
const installWords = words('install add i ci sync get');
const searchPrograms = words('rg grep egrep fgrep ag ack find fd Select-String sls findstr');
const webPrograms = words('curl wget http https xh Invoke-WebRequest iwr Invoke-RestMethod irm');
/** A script name with its variant after a colon (`lint:css`) does the script's job. */
const job = (w: string) => w.replace(/:.*$/, '');
const shellPurposes: [string, (step: string[]) => boolean][] = [
  ['check', (step) => step.some((w) => checkWords.has(job(w)))],
  ['build', (step) => step.some((w) => buildWords.has(job(w)))],
  ['install', (step) => installWords.has(step[1] ?? '')],
  ['search', (step) => searchPrograms.has(step[0] ?? '') || (step[0] === 'git' && step[1] === 'grep')],
  ['web', (step) => webPrograms.has(step[0] ?? '')],
];
/** Output sent to a file (`> CHANGELOG.md`, `>> notes.txt`; not `2>&1`, not /dev/null), or through `tee`. */
const writesFile = /(?<![\d&>])>>?[ \t]*(?![&>]|\/dev\/null)[^\s|;&<>]|\|[ \t]*tee /;

/**
 * The job a tool call or a shell command does (search, write, web, check, build, install, test), or null when it
 * says nothing of its job: a failure is got past another way by a call doing the same job, whatever its tool.
 */
export function purposeOf(entry: TranscriptEntry): string | null {
  const command = shellCommand(entry);
  if (command === null) return toolPurposes[entry.tool?.name ?? ''] ?? null;
  if (testCommand.test(command)) return 'test';
  const step = commandSteps(command).at(-1) ?? [];
  const known = shellPurposes.find(([, does]) => does(step))?.[0];
  if (known) return known;
  return writesFile.test(unwrapShell(command)) ? 'write' : null;
}

/** Whether a command line runs an HTTP client (curl, wget, httpie...): what it prints is the server's answer. */
export const callsWeb = (command: string) =>
  commandSteps(command).some((step) => webPrograms.has(step[0] ?? ''));

/**
 * A part that only sets shell variables (`X=$(go env GOMODCACHE)`): it runs no program of its own. Each piece of a
 * value (a quoted string, a `$(...)`, else one character) is taken whole and assignments are apart, so a value such
 * as `a=1,b=2,...` or `"a""b"...` is not split every possible way (that was exponential).
 */
export const assignmentOnly = /^(?:\w+=(?:(?=("[^"]*"|'[^']*'|\$\([^)]*\)|\S))\1)*(?:\s+|$))+$/;

const keyword = /^(?:then|else|elif|do|!)\s+/;
const noStep =
  /^(?:fi|done|esac|true|false|:|exit\b.*|(?:echo|printf|cd|export|set|source|\.)\b.*|if \[.*|\[\[?.*)$/;
/** Programs that only shape the output of the step before them (`... | tail -20`). */
const outputFilter = /^(?:head|tail|sort|uniq|wc|cut|tee|less|more|jq|column|tr|cat)\b/;

/** The words that name what a command part does: program and subcommands, without flags, redirects or `--` args. */
function stepWords(part: string): string[] {
  const words = part
    .replace(keyword, '')
    .replace(/^(\s*\w+=(?:"[^"]*"|'[^']*'|\$\([^)]*\)|\S)*\s+)+/, '')
    .trim()
    .split(/\s+/);
  const end = words.indexOf('--');
  return (end >= 0 ? words.slice(0, end) : words).filter(
    (w) => w !== '' && !w.startsWith('-') && !/^(?:\d*[<>]|&>)/.test(w),
  );
}

/** Whether a command line runs its parts one after another whatever happens (`;`, newlines, `||`). */
export function sequential(command: string): boolean {
  return splitCommand(command).some((p) => p.sep === ';' || p.sep === '\n' || p.sep === '||');
}

/** Steps that only look (search, list, print): running another look is exploring, not retrying. */
export const lookingStep =
  /^(?:grep|egrep|rg|ag|find|fd|ls|cat|sed|awk|head|tail|stat|file|wc|tree|which|type|echo|printf)$/;

/** The parts of a command line that are steps (not `cd`, `echo`, `fi`, an assignment, a filter at the end). */
function stepParts(command: string): string[] {
  const parts = commandParts(unwrapShell(command))
    .map((p) => p.replace(keyword, '').trim())
    .filter((p) => p !== '' && !noStep.test(p) && !assignmentOnly.test(p));
  while (parts.length > 1 && outputFilter.test(parts.at(-1) ?? '')) parts.pop();
  return parts;
}

/** Every step of a command line (`git push`, `cargo run hk`, `mise run lint`), the last one last. */
export function commandSteps(command: string): string[][] {
  return stepParts(command)
    .map(stepWords)
    .filter((w) => w.length > 0);
}

/** The program of a command line's last step: `cd /app && mix compile` -> "mix", `npm test | tail` -> "npm". */
export function lastProgram(command: string): string {
  return commandSteps(command).at(-1)?.[0] ?? '';
}

/** Asks a program about itself (`tsc --version`, `make --help`, `go version`): runs nothing of the step. */
const infoQuery = /(?:^|\s)(?:--version|-V|--help|-h|version|help)(?=\s|$)/;

/** How a failed command line ended: its output, and whether its exit status said it failed (not only its output). */
export interface FailedRun {
  output: string;
  statusFailed: boolean;
}

/**
 * A task runner's own word on which task failed: mise's `[lint] ERROR task failed` is `mise run lint` (or `mise lint`).
 */
const taskFailed: [RegExp, (task: string) => string[][]][] = [
  [
    /^\[([\w:.-]+)\] ERROR task failed$/m,
    (task) => [
      ['mise', 'run', task],
      ['mise', task],
    ],
  ],
];

/** The step of a command line that its output says failed, or null when the output names none of its steps. */
export function stepNamedIn(command: string, output: string): string[] | null {
  const steps = commandSteps(command);
  for (const [says, named] of taskFailed) {
    const task = says.exec(output)?.[1];
    if (task === undefined) continue;
    const step = steps.find((s) =>
      named(task).some((n) => n.length === s.length && n.every((w, i) => s[i] === w)),
    );
    if (step) return step;
  }
  return null;
}

/**
 * The steps of the segment a failed list (`a; b`, `a\nb`: each part runs whatever the one before did) stopped in:
 * the exit status is its last segment's (an `&&` chain, `mise run lint && cargo test`), so only when that status
 * said it failed; none for `a || b` (b runs because a failed), a heredoc (its lines are text, not steps) or a failure
 * known from the output only (an earlier segment may have printed it).
 */
export function lastSegmentSteps(command: string, failure?: FailedRun): string[][] {
  const line = unwrapShell(command).trim();
  if (!failure?.statusFailed || line.includes('<<')) return [];
  const parts = splitCommand(line);
  if (parts.some((p) => p.sep === '||')) return [];
  const from = parts.findLastIndex((p, i) => i < parts.length - 1 && (p.sep === ';' || p.sep === '\n')) + 1;
  return commandSteps(
    parts
      .slice(from)
      .map((p) => `${p.text} ${p.sep}`)
      .join(' '),
  );
}

/**
 * A later command runs the failed command's step again: every word of the step (program, subcommand, arguments),
 * in order, other flags and more arguments allowed (`git push` then `git push --set-upstream origin x`; `mise run
 * fmt && mise run lint` then `mise run lint`); a bare program only bare (`make` then `make clean` runs another
 * target), never a question about the program (`npx tsc --version`); a script by its absolute or relative path is the
 * same script. The step an `&&` chain stopped at is its last one, unless its output names the step that failed
 * (`[lint] ERROR task failed`: `mise run lint`). In a list whose every part runs (`a; b`, lines), the failed step is
 * in the last segment when the exit status said so (lastSegmentSteps), otherwise unknown; a step that only looks
 * (grep, rg, find, ls...) only with the same words (other flags), not on more paths.
 */
export function sameStep(failedCommand: string, later: string, failure?: FailedRun): boolean {
  const line = unwrapShell(failedCommand).trim();
  const named = failure ? stepNamedIn(failedCommand, failure.output) : null;
  // `if C; then A; else B; fi`: the branch that ran failed, at its last step (C only chose which)
  const steps = named
    ? [named]
    : ifElse.test(line)
      ? branchEnds(line)
      : // in `a; b` or `a || b` every part runs: the last one is where the failure stopped only by the exit status
        sequential(line)
        ? lastSegmentSteps(failedCommand, failure).slice(-1)
        : commandSteps(failedCommand).slice(-1);
  return steps.some((step) => runsStep(step, later));
}

/**
 * A later command runs every step of the failed `&&` chain again (the last segment of a list that failed by its exit
 * status, lastSegmentSteps), whichever of them failed: `mise run lint && cargo test` after `cargo fmt --check` then
 * `mise run lint && cargo test` failed.
 */
export function rerunsChain(failedCommand: string, later: string, failure?: FailedRun): boolean {
  const line = unwrapShell(failedCommand).trim();
  if (ifElse.test(line)) return false;
  const steps = sequential(line) ? lastSegmentSteps(failedCommand, failure) : commandSteps(failedCommand);
  return steps.length > 0 && steps.every((step) => runsStep(step, later));
}

/** `if C; then A; else B; fi` on one line. */
const ifElse = /^if\b[\s\S]*;\s*then\b[\s\S]*;\s*else\b[\s\S]*;\s*fi$/;

/** The last step of each branch of an if/else (`then`, `else`), not of its conditions (`if`, `elif`). */
function branchEnds(line: string): string[][] {
  const ends: string[][] = [];
  let last: string[] | null = null;
  let inBranch = false;
  for (const part of splitCommand(line)) {
    const text = part.text.trim();
    const opens = /^(then|else|elif|if|fi)\b/.exec(text)?.[1];
    if (opens) {
      if (last) ends.push(last);
      last = null;
      inBranch = opens === 'then' || opens === 'else';
    }
    const words = stepWords(text);
    if (inBranch && words.length && !noStep.test(text.replace(keyword, ''))) last = words;
  }
  if (last) ends.push(last);
  return ends;
}

/** Whether a part of `later` runs `step` (its words, in order, with more after them). */
function runsStep(step: readonly string[], later: string): boolean {
  // a look run again is the same look only with the same words (other flags: `rg -e "--x" src` after `rg "--x" src`)
  const looks = lookingStep.test(step[0] ?? '');
  return stepParts(later).some((part) => {
    const other = stepWords(part);
    if (infoQuery.test(part) || other.length < step.length) return false;
    if (looks && other.length !== step.length) return false;
    return step.every((w, i) => samePath(other[i] ?? '', w)) && (step.length > 1 || other.length === 1);
  });
}

/**
 * The same word, or the same file named from elsewhere: `./scripts/x.sh` and `scripts/x.sh`, or an absolute path and
 * the relative one it ends with (`/home/dev/app/scripts/x.sh`, `scripts/x.sh`: a directory and a file name at least).
 */
function samePath(a: string, b: string): boolean {
  const bare = (w: string) => w.replace(/^\.\//, '');
  const [x, y] = [bare(a), bare(b)];
  if (x === y) return true;
  const [abs, rel] = x.startsWith('/') ? [x, y] : [y, x];
  return abs.startsWith('/') && !rel.startsWith('/') && rel.includes('/') && abs.endsWith(`/${rel}`);
}

/** Programs that run a script: the script is part of what runs (`python3 export.py` and `python3 export_json.py` differ). */
const interpreter =
  /^(?:python[\d.]*|node|ruby|perl|php|bash|sh|zsh|deno|bun|tsx|ts-node|Rscript|julia|lua)$/;

/**
 * A later command runs the failed step's program the same way on other operands: `./target/debug/calc 6 / 0`, then
 * `./target/debug/calc 6 / 3`; `make build`, then `make clean`. The same words but for operands that differ (the same
 * flags where they stand; an interpreter's script is part of the program): another input, so another job, neither a
 * retry of the failed one nor a way around it. Not for lists whose every part runs (`a; b`).
 */
export function otherInput(failedCommand: string, later: string): boolean {
  if (sequential(unwrapShell(failedCommand).trim()) || sequential(unwrapShell(later).trim())) return false;
  const words = (c: string) => stepParts(c).at(-1)?.split(/\s+/) ?? [];
  const [a, b] = [words(failedCommand), words(later)];
  // the same program on other numbered things: `gh pr merge 234`, then `gh pr close 222`; not an option's value
  // (`--workers 2`, then `--workers 1`: the same job, run another way)
  const numbers = (ws: string[]) =>
    new Set(
      ws.flatMap((w, i) => (i > 0 && !ws[i - 1]?.startsWith('-') ? (/^#?(\d+)$/.exec(w)?.[1] ?? []) : [])),
    );
  const [na, nb] = [numbers(a), numbers(b)];
  if (samePath(a[0] ?? '', b[0] ?? '') && na.size && nb.size && ![...na].some((n) => nb.has(n))) return true;
  if (a.length < 2 || a.length !== b.length || !samePath(a[0] ?? '', b[0] ?? '')) return false;
  // the script an interpreter runs is the program: its first operand
  const script = interpreter.test(a[0] ?? '')
    ? Math.max(
        0,
        a.findIndex((w, i) => i > 0 && !w.startsWith('-')),
      )
    : 0;
  const differ = a.flatMap((w, i) => (w === b[i] ? [] : [i]));
  // a word typed right (`cargo build` after `cargo biuld`) is the same input, corrected
  return (
    differ.length > 0 &&
    differ.every((i) => i > script && !(a[i] ?? '').startsWith('-') && !(b[i] ?? '').startsWith('-')) &&
    !differ.every((i) => mistyped(a[i] ?? '', b[i] ?? ''))
  );
}

/** Words of the shell's plumbing and of output shaping: they say nothing of what a command is about. */
const plumbing = words(
  'cd echo printf head tail sort uniq wc cut tee less more column tr cat xargs sh bash zsh true false exit export set if then else elif fi for in do done while sudo env time nohup timeout /dev/null',
);
/** What a command line names: its programs and operands (paths, names, patterns), not flags, numbers or plumbing. */
function namedWords(command: string): Set<string> {
  return new Set(
    unwrapShell(command)
      .split(/[\s|;&<>"'`(){}=,$]+/)
      .filter((w) => w.length > 1 && !w.startsWith('-') && /[A-Za-z]/.test(w) && !plumbing.has(w)),
  );
}

/**
 * Whether a later command is about what the failed one was about: it names one of its programs or operands (`npx
 * vite build` after `npm run build`, `find ~/.codex/sessions -size +20k` after `find ~/.codex/sessions | xargs ...`).
 * One that names none of them (`bun run typecheck` after `node scripts/count.mjs`) did the next job, not this one.
 */
export function sharesWords(failedCommand: string, later: string): boolean {
  const failed = namedWords(failedCommand);
  return [...namedWords(later)].some((w) => failed.has(w));
}

/** What a test command names to run (`tests/test_a.py::test_x`, `src/a.test.ts`, `./pkg/...`): none = all. */
const testTargets = (command: string) =>
  commandSteps(command)
    .flat()
    .filter((w) => /[/.]|::/.test(w));

/**
 * Whether a later test command runs the tests a failed one ran: either runs the whole suite (go's `./...` is the
 * whole suite), or each failed target is among the later ones or inside one of them (`tests/test_a.py::test_x`, then
 * `tests/test_a.py` or `tests/`; go's `./internal/...`, then `./internal/window`). When go's report of a `./...` run
 * names the packages that failed (`FAIL\texample.org/app/internal/window\t0.01s`), the later run must cover those.
 * Another file (`pytest tests/test_a.py` failing, `pytest tests/test_b.py` passing) is not.
 */
export function coversTests(failedCommand: string, later: string, failedOutput = ''): boolean {
  const ran = testTargets(later).map((r) => r.replace(/^\.\//, '').replace(/\/$/, ''));
  // go's `./...` and `./x/...` run every package under them: the packages its report failed are what must pass
  const goPackages = [...failedOutput.matchAll(/^FAIL\t(\S+)\t/gm)].map((m) => m[1] ?? '');
  if (goPackages.length > 0 && testTargets(failedCommand).some((t) => t.endsWith('...'))) {
    if (ran.length === 0) return true;
    return goPackages.every((pkg) =>
      ran.some((r) => {
        const tree = /^(.*?)\/?\.\.\.$/.exec(r);
        if (tree) return tree[1] === '' || pkg.includes(`/${tree[1]}/`) || pkg.endsWith(`/${tree[1]}`);
        return pkg.endsWith(`/${r}`);
      }),
    );
  }
  // go's `./...` is every package: the whole suite, as no target is
  const failed = testTargets(failedCommand).filter((t) => !/^(?:\.\/)?\.\.\.$/.test(t));
  if (failed.length === 0 || ran.length === 0) return true;
  return failed.every((target) => {
    const t = target.replace(/^\.\//, '');
    // `./internal/...` holds every package under it: one of them run alone is among its tests
    const tree = /^(.*)\/\.\.\.$/.exec(t)?.[1];
    return ran.some(
      (r) =>
        t === r ||
        t.startsWith(`${r}/`) ||
        t.startsWith(`${r}::`) ||
        (tree !== undefined && (r === tree || r.startsWith(`${tree}/`))),
    );
  });
}

/** The ways a command line runs a test suite: a runner itself, or a package script, task or target named test. */
const testRunners = [
  // package managers: `npm test`, `npm t`, `pnpm run test:unit`, `pnpm -r test`, `yarn workspace web test`
  String.raw`npm (run )?test|npm t|npm run test:[\w:-]+|pnpm (run )?test|yarn (workspace \S+ )?(run )?test|bun (run )?test`,
  String.raw`(?:npm|pnpm|yarn)(?: -\S+(?: [^\s-]\S*)?)+ (?:run )?test`,
  // JavaScript runners and monorepo task runners
  String.raw`vitest|jest|mocha|jasmine|ava|karma start|ng test|node --test|deno (?:task )?test|playwright test|turbo (?:run )?test|lerna run test`,
  String.raw`nx (?:run )?(?:[\w@/-]+:)?test|nx (?:run-many|affected)(?: \S+)*? (?:-t|--targets?)[= ]test`,
  // Python: pytest and unittest however started, Django's runner, tox, nox, hatch
  String.raw`pytest|py\.test|python3? -m (pytest|unittest)|manage\.py test|tox|nox|hatch (?:run )?test`,
  // Ruby, PHP, Elixir
  String.raw`rspec|(?:bin\/)?rails test|rake (?:test|spec)|(?:\.\/)?(?:vendor\/bin\/)?(?:phpunit|pest)|php artisan test|mix test`,
  // JVM and .NET: `./gradlew :app:testDebugUnitTest`, `mvn clean test`, `./mvnw verify`
  String.raw`(?:\.\/)?gradlew?(?: \S+)*? (?:[\w-]*:)*test\w*|(?:\.\/)?mvnw?(?: \S+)*? (?:test|verify)(?![\w-])|dotnet test`,
  // compiled languages and their build tools (`cargo +nightly test`: rustup's toolchain override)
  String.raw`go test|gotestsum|cargo (?:\+\S+ )?(test|nextest)|swift test|xcodebuild\b[^|;&\n]*? test(?:-without-building)?|(?:flutter|dart) test`,
  String.raw`ctest|meson test|bazel test|zig (?:build )?test|bats`,
  // Scala, Clojure, Haskell, OCaml, Julia, R, Perl, Lua
  String.raw`sbt (?:\S+ )*?"?test(?:Only)?|lein test|(?:clj|clojure) -[XM]:test|bb test|(?:cabal|stack) test|dune (?:run)?test`,
  String.raw`julia (?:\S+ )*?test\/runtests\.jl|prove|busted`,
  String.raw`(mise|make|just|task) (run )?test[\w:-]*`,
];

/**
 * What may stand before the runner in its command: a shell keyword or a subshell, variables, programs that run the
 * next one (`npx`, `uv run`, `bundle exec`, `timeout 60`...).
 */
const launcher = [
  String.raw`\(\s*`,
  String.raw`(?:if|then|else|do|while|until|!)\s+`,
  String.raw`\w+=(?:"[^"]*"|'[^']*'|\S*)\s+`,
  String.raw`(?:sudo|env|time|nice|nohup|command|exec|xvfb-run(?: -a)?|timeout(?: -\S+)* \d+\w*)\s+`,
  String.raw`(?:npx(?: -y| --yes)?|bunx|bun x|pnpm(?: exec| dlx)?|yarn(?: dlx| exec)?|npm exec(?: --)?|uv run|poetry run|pdm run|pipenv run|hatch run|rye run|bundle exec|mise exec --)\s+`,
];
/** A path to the runner (`./node_modules/.bin/`, `vendor/bin/`): one token, so no nesting of repeats backtracks. */
const runnerPath = String.raw`(?:[\w./-]*\/)?`;
/** Runners named inside their program's arguments: `python manage.py test`, `julia -e 'using Pkg; Pkg.test()'`. */
const embeddedRunner = /(?<![\w./-])(?:manage\.py test|Pkg\.test|devtools::test|testthat::test_\w+)\b/;
// the runner in command position only: `cat tox.ini`, `git checkout tox-fix`, `grep -r ava src` run no tests
const testRun = new RegExp(
  String.raw`^(?:${launcher.join('|')})*${runnerPath}(?:${testRunners.join('|')})(?![\w.-])`,
);
/** A quoted message (a commit's, a pull request's, an echo's): the runners it names do not run. */
const quotedMessage = /(\s-m|--message|--title|--body|--subject|\becho|\bprintf)([\s=]+)(?:"[^"]*"|'[^']*')/g;
/** A package manager installing, removing or describing packages: `npm install -D vitest`, `uv pip install pytest`. */
const packageChange =
  /^(?:sudo\s+)?(?:npm|pnpm|yarn|bun|pip3?|pipx|uv(?:\s+pip)?|python3?\s+-m\s+pip|poetry|pdm|conda|mamba|gem|bundle|brew|cargo|go|composer|dotnet|apt(?:-get)?|apk|deno)\s+(?:(?:-\S+|global)\s+)*(?:install|add|i|remove|uninstall|info|view|why|require)(?:\s|$)/;

/**
 * Commands that run a test suite (the runner itself, or a package script / task named test); not a package being
 * installed or looked up (`npm install -D vitest`, `pip install pytest`), nor a runner named in a message
 * (`git commit -m "fix the jest config"`). Each part of a command line is tested on its own.
 */
export const testCommand = {
  test(command: string): boolean {
    const text = command.replace(quotedMessage, '$1$2""');
    return commandParts(text).some(
      (part) => !packageChange.test(part) && (testRun.test(part) || embeddedRunner.test(part)),
    );
  },
};

/**
 * A project's own test script, by its name (`./test_greet.sh`, `bash scripts/run-tests.sh`): a test run only when it
 * prints a runner's report (test-runs.ts), so it is not a `testCommand` (a `./test_data_gen.sh` that fails is no
 * failing test).
 */
const testScriptRun = new RegExp(
  [
    String.raw`^(?:(?:ba|z)?sh\s+)?(?:[\w./-]*\/)?(?:run[_-]?)?tests?(?:[_-][\w.-]*)?\.(?:sh|bash)(?![\w.-])`,
    // a test file run by its interpreter (node:test and unittest report when the file runs): `node test/calc.test.js`
    String.raw`^(?:node|tsx|ts-node|bun|python3?)(?:\s+-\S+)*\s+(?:[\w./-]*\/)?(?:[\w.-]+[._-](?:test|spec)\.[cm]?[jt]sx?|test_\w+\.py|\w+_test\.py)(?![\w.-])`,
  ].join('|'),
);
export const testScript = {
  test: (command: string): boolean => commandParts(command).some((part) => testScriptRun.test(part)),
};

/** A part of a command line that runs tests itself (not a package change naming a runner). */
const runsTests = (part: string) =>
  !packageChange.test(part) && (testRun.test(part) || embeddedRunner.test(part) || testScriptRun.test(part));

/**
 * The test command of a command line, to name the run: the part that ran the tests, after the `cd` that chose where
 * (`cd web && npm ci && npm test 2>&1 | tail -5` -> `cd web && npm test`), without the set-up before it (files
 * written, a build) or the filters after it; the whole line when no part is one.
 */
export function testStep(command: string): string {
  const parts = splitCommand(unwrapShell(command).replace(quotedMessage, '$1$2""'));
  const originals = splitCommand(unwrapShell(command));
  // the parts are split the same way with or without the quoted messages: the original text is shown
  if (parts.length !== originals.length) return command;
  const at = parts.findIndex((p) => runsTests(p.text));
  if (at < 0) return command;
  // a shell keyword or a subshell before the runner (`if npm test; then`) is the line's, not the command's
  const run = (originals[at]?.text ?? '')
    .replace(/^(?:\(\s*|(?:if|then|else|elif|do|while|until|!)\s+)+/, '')
    .replace(/\s+2>&1$/, '');
  const cd = originals
    .slice(0, at)
    .map((p) => p.text)
    .findLast((t) => /^cd\s/.test(t));
  return cd ? `${cd} && ${run}` : run;
}
