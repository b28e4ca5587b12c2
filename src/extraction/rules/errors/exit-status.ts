import { readTestOutput, reportsFailure } from '../../session/test-output.js';
import { ciChecks } from './ci-checks.js';
import { splitCommand, unwrapShell } from '../../../core/split-command.js';
import { assignmentOnly, sequential, testCommand } from '../shell-command.js';

/**
 * What a command's exit status says, by the conventions programs follow: POSIX questions answer with 1, a pipeline
 * exits with its last program's status, `timeout` exits 124 when the time ran out, `xargs` 123 when the command it
 * ran failed, `gh pr checks` 1 or 8 for failing or pending checks. And where the status says nothing (masked by a
 * filter, or not recorded), what the program itself reports: a test runner's summary, a compiler's diagnostic.
 */

/**
 * Programs whose exit status 1 answers the question they ask (trouble is 2 or more): no match (grep, rg), false
 * (test, [), the files differ (diff, cmp, git diff --exit-code/--quiet), not there (which, command -v, type, lsof),
 * no process matched (pgrep, pkill, killall).
 */
const questionPrograms =
  /^(?:rg|grep|egrep|fgrep|ag|ack|git grep|test|\[\[?|diff|cmp|git diff\b.*--(?:exit-code|quiet)|which|command -v|type|lsof|pgrep|pkill|killall)(?:\s|$)/;
/** `kill` run with no pid: its usage text alone (bash's builtin, procps, BSD). */
const killUsage = /^(?:[\w/.-]*kill: )?usage:\s{0,4}kill\b/i;
const errorWords =
  /\b(?:error|fatal|denied|cannot|not permitted|no such (?:file|process)|invalid|unknown option|usage:)/i;
/** The shell saying the program is not there (bash, zsh, PowerShell): it never ran, so its status answers nothing. */
const programMissing = /\b(?:command not found|is not recognized as)\b/;
/** Lines of a diff (unified, normal or `git diff`): what the files hold, not what the command says. */
const diffLine = /^(?:[-+<> ]|@@|diff |index |Only in |Binary files |\d+(?:,\d+)?[acd]\d+)/;

interface Part {
  text: string;
  sep: string;
}

function partsOf(command: string): Part[] {
  return splitCommand(unwrapShell(command).trim())
    .filter((p) => !assignmentOnly.test(p.text))
    .map((p) => ({ ...p, text: p.text.replace(/^(?:\w+=\S*\s+)+/, '') }));
}

/**
 * Whether a non-zero exit status is the answer the command asked for, not a failure: 1 from a question (the last
 * part, whose status is the line's, or a line of questions only) unless the output, diff lines aside, says something
 * went wrong; 1 or 2 from `ls` whose only complaint is a named file that is not there; 1 with nothing printed from a
 * chain a question stopped (`[ -f .env ] && cat .env`, `which docker && docker --version`); 123 from `... | xargs
 * kill` fed by a question that found nothing, printing nothing or kill's usage (no pid given); 124 from `timeout`
 * around a program that ran until stopped without complaining (a smoke test of a server; a test run that times out
 * hangs: a failure); 8 (pending) from `gh pr checks`, and 1 from it or `gh run view/watch --exit-status` when the
 * output lists the failing checks (the CI report, an error of its own: findCiFailures).
 */
export function statusAnswers(command: string, exitCode: number | null, output: string): boolean {
  if (exitCode === null || exitCode === 0) return false;
  // Claude Code heads a failed command's output with "Exit code N"
  const body = output.replace(/^(?:Error: )?Exit code \d+\s*/, '').trim();
  const said = body
    .split('\n')
    .filter((l) => !diffLine.test(l))
    .join('\n');
  const complains = errorWords.test(said.slice(0, 500)) || programMissing.test(body.slice(0, 1000));
  const parts = partsOf(command);
  const last = parts.at(-1)?.text ?? '';
  const asks = (p: Part) => questionPrograms.test(p.text);
  const reportsChecks = exitCode === 1 && ciChecks(output).some((c) => c.status === 'fail');
  if (/^gh pr checks\b/.test(last)) return exitCode === 8 || reportsChecks;
  if (/^gh run (?:view|watch)\b.*--exit-status/.test(last)) return reportsChecks;
  // `ls` naming files that may not be there asks which are: the missing ones are its answer (GNU exits 2, BSD 1)
  if ((exitCode === 1 || exitCode === 2) && /^ls\b/.test(last))
    return said
      .split('\n')
      .filter((l) => errorWords.test(l))
      .every((l) => /No such file or directory/i.test(l));
  if (exitCode === 1) {
    const onlyQuestions = parts.every((p) => asks(p) || /^(?:echo|printf|true|cd)\b/.test(p.text));
    if ((questionPrograms.test(last) || (parts.length > 0 && onlyQuestions)) && !complains) return true;
    return body === '' && parts.some((p) => p.sep === '&&' && asks(p));
  }
  // GNU xargs runs its command once even with no input: `kill` with no pid prints its usage and fails
  if (
    exitCode === 123 &&
    (body === '' || (killUsage.test(body) && !errorWords.test(body.replace(killUsage, '')))) &&
    /^xargs\b/.test(last)
  )
    return parts.some((p) => p.sep === '|' && asks(p));
  if (exitCode === 124 && parts.some((p) => /^timeout\s/.test(p.text)))
    return !testCommand.test(command) && body !== '' && !complains;
  return false;
}

/**
 * Programs that pass on, cut or pick from what the step before them printed: a pipeline ending in one exits with
 * its status (0) whatever the step before did, unless `set -o pipefail` is on.
 */
const filterProgram =
  /^(?:head|tail|grep|egrep|fgrep|rg|sort|uniq|wc|cut|tee|less|more|jq|column|tr|cat|sed|awk|nl|fold)\b/;

/**
 * Whether the command line's last pipeline, whose status is the line's, ends in a filter that hides its first
 * program's status (`npm test 2>&1 | tail -20`, `npm ci && npm run build | tail`). Not in a list whose every part
 * runs (`a | head; b | grep x`): the output mixes parts, and a failing earlier part is not the line's outcome.
 */
export function statusMasked(command: string): boolean {
  return !sequential(unwrapShell(command)) && lastStatusMasked(command);
}

/**
 * Whether the command line's last pipeline ends in a filter that hides its first program's status, whatever ran
 * before it (`make lint | tail; make types | tail`): what ends the output is that program's.
 */
export function lastStatusMasked(command: string): boolean {
  const script = unwrapShell(command);
  if (/\bpipefail\b/.test(script)) return false;
  const parts = splitCommand(script);
  let start = parts.length - 1;
  while (start > 0 && parts[start - 1]?.sep === '|') start -= 1;
  const pipeline = parts.slice(start);
  return (
    pipeline.length > 1 &&
    filterProgram.test(pipeline.at(-1)?.text ?? '') &&
    !filterProgram.test(pipeline[0]?.text ?? '')
  );
}

/**
 * A compiler's or linter's own report of an error: tsc (`a.ts(3,5): error TS2322:`, `a.ts:3:5 - error TS2322:`),
 * C# (`error CS0103:`), rustc and cargo (`error[E0308]: ...`, `error: could not compile`), gcc, clang and javac
 * (`a.c:3:5: error: ...`), a program's `error: ...` line, eslint's summary with errors (`✖ 2 problems (1 error, 1
 * warning)`), pnpm's `ERR_PNPM_...` code; from `go build/vet/run/install`, any located line (`./main.go:12:2:
 * undefined: foo`: go prints only errors there).
 */
const diagnostics = [
  /\berror (?:TS|CS)\d+:/,
  /^error(?:\[E\d+\])?: \S/m,
  /^[\w./@~\\-]+:\d+(?::\d+)?: (?:fatal )?error: /m,
  /^[ \t]*✖ \d+ problems? \([1-9]\d* errors?/m,
  /^[ \t]*ERR_PNPM_[A-Z_]+/m,
];
const goBuild = /(?:^|[\s;&|])go (?:build|vet|run|install)\b/;
const goLocated = /^\S+\.go:\d+:\d+: \S/m;

/** What a test run's own summary says: null when no test runner ran or it printed no summary. */
export function runnerVerdict(commands: readonly string[], output: string): 'fail' | 'pass' | null {
  if (!commands.some((c) => testCommand.test(c))) return null;
  const report = readTestOutput(output);
  return report ? (reportsFailure(report) ? 'fail' : 'pass') : null;
}

/**
 * Whether the output reports its command failing, whatever the exit status said: a test run whose runner's summary
 * counts failures (the runner's report decides when there is one), or a compiler's diagnostic.
 */
export function reportedFailure(commands: readonly string[], output: string): boolean {
  const verdict = runnerVerdict(commands, output);
  if (verdict) return verdict === 'fail';
  if (diagnostics.some((d) => d.test(output))) return true;
  return commands.some((c) => goBuild.test(c)) && goLocated.test(output);
}
