import { oneLineCommand } from '../../../core/call-text.js';
import { clip } from '../../../core/clip.js';
import { doesWhatFailed } from '../../../core/context/worked-around.js';
import { fixedAtOnceNote } from '../../../core/fixed-at-once.js';
import { isUsageLimit } from '../../../core/runtime/usage-limit.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { ErrorDraft } from '../../extractor.js';
import { findTestRuns } from '../../session/test-runs.js';
import { causeOf, unlocated } from './cause-line.js';
import { findCiFailures } from './ci-checks.js';
import { similarity } from '../../similarity.js';
import {
  expectedOutcome,
  failed,
  wentOn,
  hookFeedback,
  refusalType,
  stackTrace,
  stoppedShort,
  succeeded,
} from './failure.js';
import { looksOnly, readTools } from '../looks.js';
import { deferralSaid } from './deferrals.js';
import { meantToFail } from './meant-to-fail.js';
import { readTestOutput } from '../../session/test-output.js';
import {
  commandSteps,
  coversTests,
  lastProgram,
  lookingStep,
  otherInput,
  sharesWords,
  purposeOf,
  rerunsChain,
  sameStep,
  shellCommand,
  shellCommands,
  stepNamedIn,
  testCommand,
  testStep,
  toolFamily,
} from '../shell-command.js';

/** Words of going around a failure: "instead", "fall back", "work around", "an alternative". */
const aroundWords =
  /\b(?:instead|alternatives?|alternatively|fall(?:s|ing)? ?back|fell back|work(?:ed|ing)? ?around|workaround)\b/i;
/** The agent as the one who acts: "I'll", "let me", "we", or a clause opened by what it does ("Using X instead"). */
const agentActs =
  /(?:^|[\s,(])(?:I|I'll|I'm|I've|I'd|we|we'll|we're|let me|let's)\b|^(?:instead|alternatively|using|used|use|switching|switched|falling|fell|trying|tried|going)\b/i;
const noWayAround = /\bno (?:workaround|alternative|way around)\b|\b(?:can't|cannot|couldn't) work around\b/i;
/** A clause that only announces ("I'll use grep instead"): the work must go on after it, not only after the failure. */
const announces = /\b(?:I'll|I will|we'll|let me|let's|I'm going to|going to)\b/i;

/** Words that name nothing: "the old loader" is named by "old loader". */
const articles = /\b(?:the|a|an|this|that|these|those|its|their|our|my|it|them)\b/gi;
/** What names the failed thing by its kind, not its name: "instead of the dependency", "instead of that command". */
const referenceOnly =
  /^(?:\s*(?:dependenc(?:y|ies)|packages?|librar(?:y|ies)|modules?|tools?|commands?|install(?:ation)?|approach|scripts?|calls?|requests?|one|way|versions?|files?|methods?|steps?))+\s*$/i;
/** What a clause says it replaced: "click" of "I used argparse instead of click because ...". */
const replacedSaid = /\binstead of\s+(.+?)(?=[,;:.!?]|\s+(?:because|since|as|so|for|to)\b|$)/i;

/**
 * The clause in which the agent says it goes around a failure ("I'll use grep instead", "Instead, let me read the
 * file", "Falling back to the REST API"), or null. A diagnosis that says "instead" of the code ("The closure returns
 * () instead of i32") is not one: nobody acts in it. Given the failure (its command and output), a clause that names
 * what it replaced goes around it only when that is in the failure: "I used argparse instead of click" after pytest
 * was missing is another choice, not a way around the missing pytest.
 */
export function wayAroundSaid(text: string, failure?: string): string | null {
  const clauses = text.split(/(?<=[.!?;:])\s+|\n+/).map((c) => c.trim());
  const elsewhere = (c: string) => {
    const replaced = replacedSaid.exec(c)?.[1]?.replace(articles, ' ');
    return (
      failure !== undefined &&
      replaced !== undefined &&
      !referenceOnly.test(replaced) &&
      !sharesWords(failure, replaced)
    );
  };
  return (
    clauses.find((c) => aroundWords.test(c) && agentActs.test(c) && !noWayAround.test(c) && !elsewhere(c)) ??
    null
  );
}
/**
 * A failed command ran its tests: the runner reported, or the tests are its first step (`npm run build && npm test`
 * whose build failed never reached them).
 */
function ranTests(command: string, output: string): boolean {
  if (!testCommand.test(command)) return false;
  return readTestOutput(output) !== null || testCommand.test(commandSteps(command)[0]?.join(' ') ?? command);
}

function typeOf(entry: TranscriptEntry, command: string | null): string {
  if (entry.kind === 'error') return 'agent_error';
  if (stoppedShort(entry) !== null) return 'subagent_incomplete';
  const refusal = refusalType(entry);
  if (refusal) return refusal;
  if (command && ranTests(command, entry.text)) return 'test_failure';
  if (/does not exist|no such file|(?<!command )not found/i.test(entry.text.slice(0, 300)))
    return 'file_not_found';
  if (stackTrace.test(entry.text.slice(0, 2000))) return 'exception';
  // a shell command that failed, with an exit code or (no code recorded) by what it printed
  const code = entry.tool?.exit_code ?? null;
  if (command !== null && (code !== null || entry.tool?.is_error !== true)) return 'command_failed';
  return 'tool_error';
}

/**
 * What a file or web tool acted on (its path or URL; a patch's first file, from Codex's apply_patch text or
 * `codex exec --json` file changes): a retry of the same tool on another file is not a fix.
 */
function targetOf(entry: TranscriptEntry): string | null {
  const input = entry.tool?.input;
  if (typeof input === 'string') return /^\*\*\* (?:Update|Add|Delete) File: (.+)$/m.exec(input)?.[1] ?? null;
  if (typeof input !== 'object' || input === null) return null;
  const v = input as Record<string, unknown>;
  const change = Array.isArray(v.changes)
    ? (v.changes[0] as { path?: unknown } | undefined)?.path
    : undefined;
  const target = v.file_path ?? v.path ?? v.notebook_path ?? v.url ?? change;
  return typeof target === 'string' ? target : null;
}

/**
 * A file tool's call made again once the agent had read that file: an edit refused until its file is read, or made on
 * text the file no longer has. `between`: the calls from the failure to the one that succeeded, each a look (a read,
 * a listing) or a call of the same tool (edits made, refused and made again together), one of them reading the file.
 */
function readFirst(failure: TranscriptEntry, between: readonly TranscriptEntry[]): boolean {
  const file = toolFamily(failure) === 'shell' ? null : targetOf(failure);
  if (!file) return false;
  const name = file.split(/[\\/]/).pop() ?? file;
  const reads = (e: TranscriptEntry) =>
    readTools.has(e.tool?.name ?? '')
      ? targetOf(e) === file
      : looksOnly(e) && (shellCommand(e) ?? '').includes(name);
  const looks = (e: TranscriptEntry) => readTools.has(e.tool?.name ?? '') || looksOnly(e);
  return between.some(reads) && between.every((e) => looks(e) || e.tool?.name === failure.tool?.name);
}

interface Resolution {
  resolution: ErrorDraft['resolution'];
  notes: string | null;
}

/** The entries after `index` up to the user's next request (the rest of the turn). */
function restOfTurn(entries: readonly TranscriptEntry[], index: number): TranscriptEntry[] {
  const turn: TranscriptEntry[] = [];
  for (let i = index + 1; i < entries.length; i += 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.role === 'user' && e.kind === 'text' && !e.queued) break;
    if (!e.sidechain) turn.push(e);
  }
  return turn;
}

/**
 * fixed: the same command (or the same call; for tests, a later run of the same tests) succeeds later;
 * workaround: the agent says it goes around it and the work goes on past it (a call that works after the failure, or
 * after the words when they only announce; for a failed test run, tests passing), or soon after a different call of
 * the same tool family (not a look at files, not the same program on other operands) not known to do another job
 * succeeds, or a call of any tool doing the same job (search, write, web, check, build, install); unresolved
 * otherwise: what the agent says it will do ("I'll make exit() diverge") resolves nothing, and a failed test run is
 * got past only by tests passing, or by a later run of the same tests failing for another cause (fixed: the cause
 * shown is gone). A hook's feedback stays open unless it names a command (`mix test`) that succeeds
 * later: otherwise only the hook can say it is satisfied.
 */
function resolve(
  entries: readonly TranscriptEntry[],
  index: number,
  type: string,
  cause: string,
  slips: boolean,
): Resolution {
  const failure = entries[index] as TranscriptEntry;
  if (type === 'hook_feedback') {
    // feedback naming the command it wants run (`mix test`): that command succeeding later is what it asked
    const asked = [...failure.text.matchAll(/`([^`\n]{1,200})`/g)].map((m) => (m[1] ?? '').trim());
    const done = entries
      .slice(index + 1)
      .find(
        (e) =>
          !e.sidechain &&
          succeeded(e) &&
          (e.tool?.exit_code ?? 0) === 0 &&
          asked.some((c) => c !== '' && (shellCommand(e) === c || sameStep(c, shellCommand(e) ?? ''))),
      );
    return done
      ? { resolution: 'fixed', notes: `the command it asked for succeeded (transcript line ${done.line})` }
      : { resolution: 'unresolved', notes: null };
  }
  if (type === 'agent_error') {
    // an API error, a dropped stream: passed once the agent works again
    const on = wentOn(entries.slice(index + 1));
    return on
      ? { resolution: 'fixed', notes: `the agent went on after it (transcript line ${on.line})` }
      : { resolution: 'unresolved', notes: null };
  }
  // a policy's refusal ("must not attempt to achieve the same outcome via workaround"), not to be tried again, or a
  // sub-agent that stopped short: the agent working on past it with another tool went another way
  if (type === 'tool_refused' || type === 'subagent_incomplete') {
    const own = restOfTurn(entries, index).find((e) => e.tool?.name !== failure.tool?.name && succeeded(e));
    const how =
      type === 'tool_refused'
        ? 'refused by policy: the agent went on another way'
        : 'the agent went on without it';
    return own
      ? { resolution: 'workaround', notes: `${how} (transcript line ${own.line})` }
      : { resolution: 'unresolved', notes: null };
  }
  const command = shellCommand(failure);
  const family = toolFamily(failure);
  const turn = restOfTurn(entries, index);
  const results = turn.filter((e) => e.kind === 'tool_result');
  const isTest = command !== null && type === 'test_failure';
  const same = (e: TranscriptEntry) =>
    command
      ? shellCommand(e) === command ||
        (isTest &&
          testCommand.test(shellCommand(e) ?? '') &&
          coversTests(command, shellCommand(e) ?? '', failure.text))
      : e.tool?.id === failure.tool?.id ||
        (e.tool?.name === failure.tool?.name && family !== 'shell' && targetOf(e) === targetOf(failure));
  // a fix may come in a later turn (as it may in a later import: resolveKnown)
  const later = entries.slice(index + 1).filter((e) => e.kind === 'tool_result' && !e.sidechain);
  const fix = later.find((e) => same(e) && succeeded(e));
  // the very next call, the same or the failed one corrected, succeeding before the user says more: a slip the agent
  // fixed at once (a test run passing so is a flaky test, worth telling)
  const atOnce = (e: TranscriptEntry) =>
    slips && e === later[0] && results.includes(e) && type !== 'test_failure';
  if (fix && atOnce(fix)) return { resolution: 'fixed', notes: fixedAtOnceNote(fix.line) };
  if (fix && slips && results.includes(fix) && readFirst(failure, later.slice(0, later.indexOf(fix))))
    return { resolution: 'fixed', notes: fixedAtOnceNote(fix.line, undefined, true) };
  if (fix) return { resolution: 'fixed', notes: `succeeded later (transcript line ${fix.line})` };
  // how the failed command line ended: a cell's several commands have no one exit status
  const code = failure.tool?.exit_code ?? null;
  const how = {
    output: failure.text,
    statusFailed:
      shellCommands(failure).length === 1 && (code !== null ? code !== 0 : failure.tool?.is_error === true),
  };
  // `npm run build && npm test` that failed before its tests stopped at a step before the last one: unknown which,
  // unless its output names the step that failed
  const stoppedEarlier =
    !isTest &&
    stepNamedIn(command ?? '', failure.text) === null &&
    testCommand.test(
      commandSteps(command ?? '')
        .at(-1)
        ?.join(' ') ?? '',
    );
  // a question answering no (grep finding nothing, exit 1) ran, but did not do what failed; the whole failed chain
  // run again ran whichever step of it failed
  const rerun = command
    ? later.find((e) => {
        const ran = shellCommand(e) ?? '';
        return (
          succeeded(e) &&
          (e.tool?.exit_code ?? 0) === 0 &&
          ((!stoppedEarlier && sameStep(command, ran, how)) || (!isTest && rerunsChain(command, ran, how)))
        );
      })
    : undefined;
  if (rerun)
    return {
      resolution: 'fixed',
      notes: atOnce(rerun)
        ? fixedAtOnceNote(rerun.line, clip(oneLineCommand(shellCommand(rerun) ?? ''), 100))
        : `the same step succeeded later (transcript line ${rerun.line})`,
    };
  // another attempt, not a look around (`ls`, `cat`, `git status`, `gh pr checks`) nor a test run (it checks, it does
  // not do the work); after a failed look, another look is one (`gh pr checks --json name,state` after an unknown field)
  const looked = looksOnly(failure);
  const attempt = (e: TranscriptEntry) =>
    (looked || !looksOnly(e)) && !testCommand.test(shellCommand(e) ?? '');
  const works = (e: TranscriptEntry) =>
    e.kind === 'tool_result' && succeeded(e) && (e.tool?.exit_code ?? 0) === 0;
  // the agent saying it goes around the failure, and the work going on past it: tests passing after a failed run
  const goesOn = (e: TranscriptEntry) =>
    works(e) &&
    (isTest
      ? testCommand.test(shellCommand(e) ?? '') && ranTests(shellCommand(e) ?? '', e.text)
      : attempt(e));
  const said = turn
    .slice(0, 12)
    .map((e) =>
      e.role === 'assistant' && e.kind === 'text'
        ? wayAroundSaid(e.text, `${command ?? ''}\n${failure.text}`)
        : null,
    );
  const saying = said.findIndex((w) => w !== null);
  const words = said[saying] ?? null;
  const onward = words ? turn.slice(announces.test(words) ? saying + 1 : 0).find(goesOn) : undefined;
  if (words && onward)
    return {
      resolution: 'workaround',
      notes: `${clip(words, 160)} (went on: transcript line ${onward.line})`,
    };
  if (isTest) {
    // a later run of the same tests failing for another cause got past this one (a compile error, then a failing
    // assertion); a call of another kind working after it does not make tests pass
    // its whole output (a cut middle may hold the cause, unless fewer of the same tests failed), and another cause
    // indeed: the same test failing on other values ("'hello world'", then "'Hello world'") is this failure still
    const past = later.find((e) => same(e) && failed(e) && otherCause(e, cause, failure));
    return past
      ? {
          resolution: 'fixed',
          notes: `got past: a later run of the same tests failed further on, for another cause (transcript line ${past.line})`,
        }
      : { resolution: 'unresolved', notes: null };
  }
  // the same step run again got past this failure to another one (a compile error fixed, the next one shown)
  const movedOn =
    command && !isTest && !stoppedEarlier
      ? later.find(
          (e) =>
            failed(e) && (same(e) || sameStep(command, shellCommand(e) ?? '', how)) && otherCause(e, cause),
        )
      : undefined;
  if (movedOn)
    return {
      resolution: 'fixed',
      notes: `got past: a later run of the same step failed further on, for another cause (transcript line ${movedOn.line})`,
    };
  // the same job done another way: a search by another search (the Grep tool after `rg`), a write by the Write tool
  // after a refused redirect, a page by a web search; not another job (a build passing after a typecheck failed), nor
  // a question answering no (a search that found nothing)
  // a typecheck passing after a build failed reads what the build's compiler reported; a bundle passing after a
  // typecheck failed checked nothing
  const job = purposeOf(failure);
  const jobs = job === 'build' ? ['build', 'check'] : [job];
  const sameJob = (e: TranscriptEntry) => job !== null && job !== 'test' && jobs.includes(purposeOf(e));
  const otherJob = (e: TranscriptEntry) => {
    const p = purposeOf(e);
    return job !== null && p !== null && !jobs.includes(p);
  };
  // a command about nothing the failed one named did the next job; the same program on other operands (`./calc 6 /
  // 3` after `./calc 6 / 0`) did another job, on another input
  const elsewhere = (e: TranscriptEntry) => {
    const ran = shellCommand(e);
    return command !== null && ran !== null && (!sharesWords(command, ran) || otherInput(command, ran));
  };
  const other = results
    .slice(0, 10)
    .find(
      (e) =>
        !same(e) &&
        works(e) &&
        (toolFamily(e) === family ? (attempt(e) && !otherJob(e) && !elsewhere(e)) || sameJob(e) : sameJob(e)),
    );
  if (other) {
    const how =
      toolFamily(other) === family ? `a different ${family} call` : `the ${other.tool?.name ?? ''} tool`;
    const ran = shellCommand(other);
    // what succeeded, said precisely
    const shown = ran ? clip(oneLineCommand(ran), 100) : null;
    // right after it, the failed call corrected (`python3 script.py` after `python3 scirpt.py`): a slip fixed at once;
    // another call (`git checkout -b x && git push` after a refused `git push origin main`) got round it
    if (atOnce(other) && command && ran && shown && doesWhatFailed(command, failure.text, ran))
      return { resolution: 'workaround', notes: fixedAtOnceNote(other.line, shown) };
    return {
      resolution: 'workaround',
      notes: `${how} succeeded (transcript line ${other.line})${shown ? `: \`${shown}\`` : ''}`,
    };
  }
  return { resolution: 'unresolved', notes: null };
}

/**
 * The failure's fate (`resolve`), or deferred when nothing got past it but the agent said, soon after it, that it
 * leaves it on purpose: it was there before, is not this work's, or is kept for later. `slips`: the failure is in the
 * same conversation as the calls after it, so the very next one succeeding can be a slip fixed at once (not a failure
 * an earlier conversation ended on, which the next one took up).
 */
export function fateOf(
  entries: readonly TranscriptEntry[],
  index: number,
  type: string,
  cause: string,
  slips = true,
): Resolution {
  const fate = resolve(entries, index, type, cause, slips);
  if (fate.resolution !== 'unresolved' || type === 'hook_feedback') return fate;
  const said = deferralSaid(restOfTurn(entries, index));
  return said ? { resolution: 'deferred', notes: `${said.words} (transcript line ${said.line})` } : fate;
}

/**
 * A run stopped before it could get as far as the last one: out of time, killed, refused by the network, waiting on a
 * lock. Its failure says nothing of the cause before it.
 */
const cutShort =
  /\b(?:timed out|timeout|killed|SIGKILL|SIGTERM|interrupted|could not resolve|name resolution|network is unreachable|connection (?:refused|reset|timed out)|ECONN[A-Z]+|ETIMEDOUT|EAI_AGAIN|(?:file |index )?lock\b)/i;

/**
 * A failure whose whole output (a cut middle may hold the cause) shows another cause than `cause`, got to by the run
 * (not one cut short before it could: a timeout, a kill, the network): the same test failing on other values
 * ("'hello world'", then "'Hello world'") is the same failure still. An output cut in its middle counts when its
 * run got further than the `earlier` one (the same tests, fewer of them failing): the cause held them back.
 */
function otherCause(e: TranscriptEntry, cause: string, earlier: TranscriptEntry | null = null): boolean {
  const theirs = causeOf(e.text);
  return (
    (!e.truncated || (earlier !== null && fewerFailing(earlier, e))) &&
    !showsCause(e.text, cause) &&
    similarity(theirs, cause) < 0.8 &&
    !cutShort.test(theirs) &&
    !cutShort.test(e.text.slice(-300))
  );
}

/** Whether a later run of the same tests (`later`: as many of them) reported fewer of them failing. */
function fewerFailing(earlier: TranscriptEntry, later: TranscriptEntry): boolean {
  const before = readTestOutput(earlier.text);
  const after = readTestOutput(later.text);
  if (!before || !after || before.failed === null || after.failed === null) return false;
  const total = (r: { passed: number | null; failed: number | null }) => (r.passed ?? 0) + (r.failed ?? 0);
  return total(after) === total(before) && after.failed < before.failed;
}

/** The same diagnostic whatever shows it: equal once locations and numbers are left out. */
function sameCause(a: string, b: string): boolean {
  const norm = (s: string) => unlocated(s).toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
  // "exit code 1" (no line said why) names no cause
  return !/^exit code /.test(a) && norm(a) !== '' && norm(a) === norm(b);
}

/**
 * Whether an output still shows a cause (its start, locations and numbers left out); a cause that names nothing
 * ("exit code 1") is shown by any failure.
 */
function showsCause(output: string, cause: string): boolean {
  const norm = (s: string) => unlocated(s).toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
  const said = norm(cause).slice(0, 80);
  return /^exit code /.test(cause) || said === '' || norm(output).includes(said);
}

/** What ran: the program of a command line's last step (`cd /app && mix compile` -> mix), or the tool. */
function keyOf(entry: TranscriptEntry): string {
  const command = shellCommand(entry);
  return command !== null ? `shell:${lastProgram(command)}` : `tool:${entry.tool?.name ?? entry.kind}`;
}

/**
 * What a success must run to clear an error: the program of its last step or another of its programs that acts (a
 * line that only looks, `X=$(...) && grep ... || find ...`, is cleared by a grep that works), or the same tool;
 * `cd /app && ls lib` clears nothing of `cd /app && mix compile`.
 */
function clearersOf(entry: TranscriptEntry): Set<string> {
  const command = shellCommand(entry);
  if (command === null) return new Set([keyOf(entry)]);
  const programs = commandSteps(command).map((s) => s[0] ?? '');
  // a look (ls, cat, grep) clears only a line that only looked
  const acts = programs.filter((p) => !lookingStep.test(p));
  return new Set([keyOf(entry), ...(acts.length > 0 ? acts : programs).map((p) => `shell:${p}`)]);
}

/**
 * Errors: failed commands and tool calls, tool and permission refusals, hook refusals and a Stop hook's feedback,
 * errors the agent reports, failing CI checks read with gh. Expected outcomes are not errors: a call the user declined, a probe of a missing path,
 * git with nothing to commit, a test run the agent said would fail (the red step), a call it said should fail ("it
 * should exit 2": `meantToFail`).
 */
export function findErrors(entries: readonly TranscriptEntry[], taskId: string | null): ErrorDraft[] {
  const drafts: ErrorDraft[] = [];
  const seenCalls = new Set<string>();
  const red = findTestRuns(entries).filter((r) => r.expected_failure);
  const intendedRed = new Set([
    ...red.map((r) => r.line),
    ...red.flatMap((r) => (r.tool_id ? [r.tool_id] : [])),
  ]);
  /** What the agent last said in this turn (what it was doing): a failure in a later turn was not while it. */
  let context: string | null = null;
  /** Errors drafted so far in this turn: a later failure with the same cause, before anything cleared it, is them. */
  let open: { key: string; clearers: Set<string>; detail: string; cleared: boolean }[] = [];
  entries.forEach((entry, index) => {
    if (entry.sidechain) return;
    if (entry.role === 'user' && entry.kind === 'text' && !entry.queued) {
      open = open.slice(-1);
      context = null;
    }
    if (entry.role === 'assistant' && entry.kind === 'text') context = clip(entry.text.trim(), 300);
    if (succeeded(entry)) for (const o of open) if (o.clearers.has(keyOf(entry))) o.cleared = true;
    if (!failed(entry) || expectedOutcome(entry) || meantToFail(entries, index)) return;
    // a usage limit is why the agent stopped, not an error of the work to fix: the session's facts say it
    // (read-session.ts), until the agent goes on
    if (entry.kind === 'error' && isUsageLimit(entry.text)) return;
    if (intendedRed.has(entry.line) || (entry.tool?.id && intendedRed.has(entry.tool.id))) return;
    const callId = entry.tool?.id;
    if (callId) {
      if (seenCalls.has(callId)) return;
      seenCalls.add(callId);
    }
    const command = shellCommand(entry);
    const type = typeOf(entry, command);
    const short = stoppedShort(entry);
    const feedback =
      type === 'hook_feedback'
        ? entry.text.replace(hookFeedback, '').trim()
        : short !== null
          ? `the sub-agent stopped before doing what it announced: "${short}"`
          : null;
    const unflagged = entry.tool !== null && entry.tool.exit_code === null && entry.tool.is_error !== true;
    const detail =
      feedback ?? (causeOf(entry.text, unflagged) || `exit code ${entry.tool?.exit_code ?? 'unknown'}`);
    // a failed test run is named as its test run is: by its test command (`testStep`), not the set-up and the
    // filters around it on the line
    const subject =
      type === 'hook_feedback'
        ? 'Stop hook'
        : command
          ? `\`${clip(oneLineCommand(type === 'test_failure' ? testStep(command) : command), 100)}\``
          : (entry.tool?.name ?? 'agent');
    // the same failure again (a retry, or another command showing it) before anything cleared it is one error
    const key = keyOf(entry);
    const same = (o: { key: string; detail: string }) =>
      o.key === key ? similarity(o.detail, detail) >= 0.8 : sameCause(o.detail, detail);
    if (open.some((o) => !o.cleared && same(o))) return;
    open.push({ key, clearers: clearersOf(entry), detail, cleared: false });
    const { resolution, notes } = fateOf(entries, index, type, detail);
    drafts.push({
      task_id: taskId,
      error_type: type,
      error_message: `${subject}: ${detail.slice(0, 600)}`,
      context,
      resolution,
      resolution_notes: notes,
      at: entry.at,
      evidence_line: entry.line,
    });
  });
  return [...drafts, ...findCiFailures(entries, taskId)].sort(
    (a, b) => (a.evidence_line ?? 0) - (b.evidence_line ?? 0),
  );
}
