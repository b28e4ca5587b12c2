import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { isAgentTaskTool } from '../../../core/agent-tasks/agent-task-calls.js';
import {
  lastStatusMasked,
  reportedFailure,
  runnerVerdict,
  statusAnswers,
  statusMasked,
} from './exit-status.js';
import { callsWeb, commandParts, shellCommand, shellCommands } from '../shell-command.js';
import { looksOnly, readTools } from '../looks.js';

/** Output that reads as a failure even when the agent did not flag it. */
const failureText =
  /^(error\b|fatal\b|exception\b|.*\b(rejected this action|permission denied|operation not permitted|command not found|no such file or directory)\b)/i;
const stackTrace = /(Traceback \(most recent call last\)|^\s+at \S.*:\d+:\d+\)?$)/m;

/**
 * When a format records no exit code (a Codex code-mode cell that printed only the command's output), a failure
 * is read from what the failing program itself prints: the shell's own diagnostic ("zsh:2: command not found: hk",
 * "sh: pkl: command not found", dash's "sh: 1: pkl: not found", fish's "Unknown command", PowerShell's "is not
 * recognized as the name of a cmdlet", "bash: line 3: syntax error ..."), wherever it stands, or, in the last
 * lines, a network failure ("net/http: TLS handshake timeout", ECONNREFUSED ...) or a build tool's or task runner's
 * closing verdict (mise's "[lint] ERROR task failed", "make: *** [all] Error 2", cargo's "error: could not compile
 * `x`", "npm ERR! ...", Gradle's "BUILD FAILED", Maven's "[ERROR] BUILD FAILURE", turbo's "ERROR run failed:"),
 * or near the end a Python traceback (printed as an uncaught exception ends the program).
 */
const shellDiagnostic =
  /(?:^|\s)(?:(?:ba|z|k|da)?sh(?::\s*line)?(?::?\s*\d+)?: (?:[^\s:]+: )?(?:command not found|parse error|syntax error)\b|sh: \d+: [^\s:]+: not found$|fish: Unknown command\b|is not recognized as (?:(?:the|a) name of a cmdlet|an internal or external command))/m;
const networkFailure =
  /\b(?:TLS handshake timeout|i\/o timeout|connection refused|connection reset by peer|could not resolve host|no such host|network is unreachable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN)\b/i;
const closingVerdict =
  /^(?:\[[\w:./-]+\] ERROR task failed|BUILD FAILED\b|\[ERROR\] BUILD FAILURE|\s*ERROR\s+run failed: |make(?:\[\d+\])?: \*\*\* .*Error \d+|npm (?:ERR!|error) |error: Recipe `[^`]+` failed|(?:error\s+|ELIFECYCLE\s+)?Command failed with exit code [1-9]|error: could not compile `|Error: Process completed with exit code [1-9])/i;

/** The last line of a traceback: the exception's class (`KeyError`, `pkg.errors.ConfigError: ...`) and message. */
const pythonException =
  /^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Iteration|Failure)(?::\s.*)?$/;

/** git commands that change the repository, the index or the remote (not those that only look or ask). */
const gitWrite =
  /^git (?:-C \S+ )?(?:add|commit|push|pull|fetch|merge|rebase|reset|restore|checkout|switch|cherry-pick|revert|stash|rm|mv|clone|init|tag -a|am|apply)\b/;

/**
 * Without an exit code, git refusing a change ends the output with its `fatal:` line ("fatal: Unable to create
 * '.git/index.lock': Permission denied"; git exits 128 after it). A look or a question answered with `fatal:` (`git
 * show v1.0` for a tag not there, `git symbolic-ref HEAD` on a detached head) is its answer.
 */
export function gitRefused(commands: readonly string[], text: string): boolean {
  if (!commands.some((c) => commandParts(c).some((p) => gitWrite.test(p)))) return false;
  return outputLines(text)
    .slice(-3)
    .some((l) => /^fatal: \S/.test(l));
}

/** The output's lines that say something, trimmed. */
const outputLines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Whether output without an exit code shows its command failing (see above). */
export function unflaggedFailure(text: string): boolean {
  if (shellDiagnostic.test(text)) return true;
  const lines = outputLines(text);
  // Python prints an uncaught exception's traceback as it exits: the exception's line ends the output (a traceback
  // a program logged and went on from is not its end)
  const traceback = lines.lastIndexOf('Traceback (most recent call last):');
  if (traceback >= 0 && traceback >= lines.length - 40 && pythonException.test(lines.at(-1) ?? ''))
    return true;
  // Node prints an uncaught error's stack as it exits (then its version): a program that logged one went on
  const end = lines.filter((l) => !/^Node\.js v\d/.test(l)).at(-1) ?? '';
  if (/^at \S.*:\d+:\d+\)?$/.test(end)) return true;
  return lines.slice(-3).some((l) => networkFailure.test(l) || closingVerdict.test(l));
}

/** Statuses that say a resource is not there: a probe of a path that turned out missing, not a failure. */
const missingStatus = new Set([404, 410]);

/**
 * A web API refusing a request in a JSON body the HTTP client printed and exited 0 on (`curl -s` of GitHub's API
 * without a token: `{"message": "Requires authentication", "status": "401"}`): a status of 400 or more (but a
 * missing resource's 404, which answers "is it there?"), an `error` said, or GraphQL `errors` with no data.
 */
export function httpRefused(commands: readonly string[], text: string): boolean {
  // an HTTP client exits 0 whatever the status it got (curl without `-f`)
  if (!commands.some(callsWeb)) return false;
  let body: unknown;
  try {
    body = JSON.parse(text.trim());
  } catch {
    return false;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  const status = Number(b.status ?? b.statusCode ?? b.status_code);
  if (Number.isInteger(status) && status >= 400 && status < 600) return !missingStatus.has(status);
  const said = (v: unknown) =>
    (typeof v === 'string' && v.trim() !== '') || (v !== null && typeof v === 'object' && !Array.isArray(v));
  if (said(b.error)) return true;
  return Array.isArray(b.errors) && b.errors.length > 0 && (b.data === undefined || b.data === null);
}

/** Whether a build tool's or task runner's closing verdict (`closingVerdict`) is among the output's last lines. */
const endsInVerdict = (text: string) =>
  outputLines(text)
    .slice(-3)
    .some((l) => closingVerdict.test(l));

/**
 * A Python program that died of an uncaught exception, whatever the status the command line ends with (`python3
 * a.py | tail; echo done` exits 0): its traceback starts at the module's own frame (`File "a.py", line 3, in
 * <module>`) and ends with the exception's line. An exception a program logs and goes on from is not raised to its
 * module.
 */
export function pythonCrashed(text: string): boolean {
  const lines = text.split('\n');
  for (let i = lines.indexOf('Traceback (most recent call last):'); i >= 0;) {
    if (/^\s+File "[^"]+", line \d+, in <module>$/.test(lines[i + 1] ?? '')) {
      let j = i + 2;
      while (j < lines.length && /^\s/.test(lines[j] ?? '')) j += 1;
      if (pythonException.test(lines[j] ?? '')) return true;
    }
    i = lines.indexOf('Traceback (most recent call last):', i + 1);
  }
  return false;
}

/** The user said no to a tool call (or stopped it): their choice, not a failure. */
export const userDecline =
  /doesn't want to proceed with this tool use|User rejected tool use|\[Request interrupted by user/i;
/** The user declined the call this result answers: an expected outcome, no failure (`expectedOutcome`). */
export const declinedByUser = (entry: TranscriptEntry): boolean =>
  entry.kind === 'tool_result' && userDecline.test(entry.text.slice(0, 600));
/** A hook stopped the agent from finishing its turn and told it why (a user-role message Claude Code writes). */
export const hookFeedback = /^\s*(?:Subagent)?Stop hook feedback:\s*/;
/** A hook refusing or failing a call, as Claude Code reports it ("PreToolUse:Bash hook error: ...", "PostToolUse:Edit
 * hook blocking error from command: ..."), or as a tool says it was blocked. */
const hookRefusal =
  /\bhook (?:blocking )?(?:error|denied|blocked)|blocked by (?:a |the )?\w* ?hook|\b(?:Pre|Post)ToolUse(?:Failure)?:\w+ hook/i;
const permissionRefusal =
  /requested permissions? to|require(?:s)? (?:explicit )?approval|permission to use \S+ (?:has been |was )?denied|haven't granted it/i;
const policyRefusal = /rejected this action|security policy|not allowed by (?:the )?policy/i;
/** A missing path, said the way tools and shells say it. */
const missingPath =
  /does not exist|no such file or directory|no matches found|cannot find the path|path not found|\bENOENT\b/i;
/** Claude Code cancelling the parallel calls of a message when one of them failed. */
const siblingCancelled = /^\s*<tool_use_error>Sibling tool call errored<\/tool_use_error>\s*$/;
/** Runs that end non-zero with nothing wrong: nothing to commit, nothing to pull. */
const benign = /nothing to commit|no changes added to commit|nothing added to commit|already up to date/i;

/** Reading or listing a path that is not there answers "is it there?": a probe, not a failure. */
export function isProbe(entry: TranscriptEntry): boolean {
  if (!missingPath.test(entry.text.slice(0, 600))) return false;
  if (entry.tool?.name && readTools.has(entry.tool.name)) return true;
  return looksOnly(entry);
}

/** Tools that run a sub-agent and return its final message as their result. */
const subagentTools = new Set(['Task', 'Agent']);
/**
 * Tools whose answer is what someone else wrote (a sub-agent's message, a web page; an MCP server's result, which
 * flags its own failures): their words are not theirs.
 */
const quotingTools = new Set([...subagentTools, 'WebFetch', 'WebSearch']);
/**
 * A tool that answers its own failure in plain text, unflagged: Claude Code's LSP tool ("Error performing
 * goToDefinition: Command failed with ENOENT: pyright-langserver --stdio").
 */
function toolSaysError(entry: TranscriptEntry): boolean {
  const name = entry.tool?.name ?? '';
  if (quotingTools.has(name) || name.startsWith('mcp__')) return false;
  return /^Error(?: performing [\w -]{1,40})?: \S/.test(entry.text.trimStart());
}

/** A result in an answer: a list, code, a path or a file name, or a colon opening what follows. */
const carriesResult =
  /^[ \t]*(?:[-*•]|\d+[.)])\s|`|\b[\w.-]+\/[\w./-]+|\b\w+\.(?:[jt]sx?|py|go|rs|rb|exs?|java|kt|md|json|toml|ya?ml|sh|sql|css|html)\b|:\s*$/m;
/**
 * The next step announced: "Let me create ...", "Now I'll list ...", "I'm going to scan ...": any verb but those that
 * conclude ("Let me know ...", "I'll leave X in place", "I'll need ...", "I'll stop here", "I'll hand it back").
 */
const announcedStep =
  /^(?:(?:now|next|first|then),? )?(?:let me|I'll|I will|I'm going to|I am going to) (?:now |first |then |also |just )?(?!(?:now|first|then|also|just|not|know|leave|need|keep|note|be|have|stop|end|wait|let|assume|mention|say|hand|defer|skip|report back|get back|return)\b)[a-z]+\b/i;

/**
 * A sub-agent whose whole answer announces its next step ("... Let me create a detailed technical specification.")
 * stopped before doing it: the result the caller waits for is not there, although the tool reports success. The
 * answer is short (at most three sentences), carries no result (no list, code, path) and ends announcing work;
 * "I'll leave X in place", "I'll need the other repo" are conclusions, not a next step.
 */
export function stoppedShort(entry: TranscriptEntry): string | null {
  if (entry.kind !== 'tool_result' || !subagentTools.has(entry.tool?.name ?? '')) return null;
  const answer = entry.text.replace(/\n*agentId: [\s\S]*$/, '').trim();
  if (answer === '' || answer.length > 400 || carriesResult.test(answer)) return null;
  const sentences = answer.split(/(?<=[.!?])\s+/);
  const last = sentences.at(-1) ?? '';
  return sentences.length <= 3 && announcedStep.test(last) ? last : null;
}

/** Whether an entry reports a failure (before deciding whether it counts as an error). */
export function failed(entry: TranscriptEntry): boolean {
  if (entry.kind === 'error') return true;
  if (entry.kind === 'meta') return hookFeedback.test(entry.text);
  if (entry.kind !== 'tool_result' || !entry.tool) return false;
  if (stoppedShort(entry) !== null) return true;
  const command = shellCommand(entry);
  const code = entry.tool.exit_code;
  if (command !== null && statusAnswers(command, code, entry.text)) return false;
  if (code !== null && code !== 0) return true;
  if (entry.tool.is_error === true) return true;
  // a look at a file (cat, tail, grep, docker logs) prints what the file holds, not how the command went
  const commands = shellCommands(entry);
  const looks = looksOnly(entry);
  // a filter ending the pipeline (`npm test | tail`) exits 0 whatever the program before it did: its report says,
  // and so does the verdict of a build tool ending the output (`make lint | tail; make types | tail`)
  if (code === 0 || entry.tool.is_error === false)
    return (
      !looks &&
      ((commands.some(statusMasked) && reportedFailure(commands, entry.text)) ||
        (commands.some(lastStatusMasked) && endsInVerdict(entry.text)) ||
        pythonCrashed(entry.text) ||
        httpRefused(commands, entry.text))
    );
  // no exit code and no flag: a tool's answer may still be a refusal ("rejected this action due to ... policy"),
  // but what it quotes (a sub-agent's answer, a search match, an MCP result) is not its failure
  if (command === null)
    return entry.tool.is_error !== false && (refusalType(entry) !== null || toolSaysError(entry));
  // a shell command's output says how it went; the final poll of a running one judges
  if (looks || entry.tool.running === true) return false;
  const verdict = runnerVerdict(commands, entry.text);
  if (verdict) return verdict === 'fail';
  if (failureText.test(entry.text.trimStart().slice(0, 300))) return true;
  return (
    unflaggedFailure(entry.text) ||
    gitRefused(commands, entry.text) ||
    reportedFailure(commands, entry.text) ||
    httpRefused(commands, entry.text)
  );
}

/**
 * A call that worked: neither failed nor declined, and over (a command still running when its result came, a Codex
 * cell "Script running with cell ID 7", has not worked yet: the poll that ends it says how it went).
 */
export function succeeded(entry: TranscriptEntry): boolean {
  return (
    entry.kind === 'tool_result' &&
    entry.tool?.running !== true &&
    !failed(entry) &&
    !userDecline.test(entry.text.slice(0, 300))
  );
}

/**
 * A failure that is an expected outcome rather than an error: the user declined the call, a probe found no file,
 * git had nothing to commit, a parallel call was cancelled because its sibling failed (the sibling is the error). (An announced red test run is decided with the test runs.) A tool refusing a call
 * (an Edit of a file not read yet, a Read of a folder) is a failed call like any other: the labels count it.
 */
export function expectedOutcome(entry: TranscriptEntry): string | null {
  const head = entry.text.slice(0, 600);
  if (entry.kind !== 'tool_result') return null;
  if (declinedByUser(entry)) return 'declined by the user';
  if (entry.tool?.interrupted === true) return 'stopped by the agent';
  // a parallel call cancelled because another call of the same message failed: that other call is the error
  if (siblingCancelled.test(head)) return 'cancelled with a sibling call that failed';
  if (isProbe(entry)) return 'probe of a missing path';
  // the agent's own task list (a TaskUpdate of a task Claude Code lost on a resume: "Task not found") is bookkeeping,
  // not the work: the task list Baton keeps says where the work stands
  if (isAgentTaskTool(entry.tool?.name ?? '')) return "a call of the agent's own task list";
  if (benign.test(head) && entry.tool?.is_error !== true) return 'nothing to do';
  if (benign.test(head) && /\bgit\b/.test(shellCommand(entry) ?? '')) return 'nothing to do';
  return null;
}

/** The kind of refusal or failure, for the error type. */
export function refusalType(entry: TranscriptEntry): string | null {
  const head = entry.text.slice(0, 600);
  if (entry.kind === 'meta' && hookFeedback.test(entry.text)) return 'hook_feedback';
  if (hookRefusal.test(head)) return 'hook_refusal';
  if (permissionRefusal.test(head)) return 'permission_denied';
  if (policyRefusal.test(head)) return 'tool_refused';
  return null;
}

export { closingVerdict, networkFailure, shellDiagnostic, stackTrace };

/** The first entry where the agent works again (says something, or a tool call succeeds), else undefined. */
export function wentOn(entries: readonly TranscriptEntry[]): TranscriptEntry | undefined {
  return entries.find(
    (e) =>
      !e.sidechain &&
      ((e.role === 'assistant' && e.kind === 'text') || (e.kind === 'tool_result' && succeeded(e))),
  );
}
