import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import {
  branchOf,
  contextWindowOf,
  cwdOf,
  detectTranscriptFormat,
  parseJsonLine,
  parseTranscript,
  recentCallsOf,
  type ParsedTranscript,
  type TranscriptEntry,
  type TranscriptFormat,
} from '../../agents/index.js';
import {
  agentLabel,
  invalidInput,
  machineZone,
  nested,
  transcriptKey,
  type AgentTaskCall,
  type UsageMetrics,
} from '../../core/index.js';
import {
  readSession,
  resolveKnown,
  RulesExtractor,
  type Extractor,
  type OpenError,
  type SessionFacts,
} from '../../extraction/index.js';
import { agentSummaryInput, type ImportMarker, type RecordInput } from '../../service/index.js';
import { historyOf } from './history-lines.js';

export const transcriptFormats = ['claude-code', 'codex'] as const;
export type TranscriptSource = (typeof transcriptFormats)[number];

/** The formats each `baton import` source reads (Claude Code writes transcripts and stream-json). */
const formatsOf: Record<TranscriptSource, readonly TranscriptFormat[]> = {
  'claude-code': ['claude-code-transcript', 'claude-code-stream-json'],
  codex: ['codex-rollout', 'codex-exec-json'],
};
const names: Record<TranscriptFormat, string> = {
  'claude-code-transcript': 'a Claude Code transcript',
  'claude-code-stream-json': 'Claude Code stream-json output',
  'codex-rollout': 'a Codex rollout',
  'codex-exec-json': '`codex exec --json` output',
};

/** What the workflow already holds: earlier imports of transcripts, and records not to repeat. */
export interface Known {
  imports: Record<
    string,
    {
      format: string;
      path: string | null;
      through_line: number;
      through_byte?: number;
      parser_state?: unknown;
    }
  >;
  decisions: { description: string }[];
  errors: { error_message: string }[];
  /** Errors not fixed yet (unresolved, or worked around): a later import may find their fix. */
  open_errors: OpenError[];
  side_effects: { kind: string; summary: string; timestamp?: string }[];
  /** When the work was checked before this piece: the latest test run, the errors the state holds. */
  checked_at?: string[];
  last_message: string | null;
}

/** What of a workflow an import checks a new piece against: its state's fields (a status view carries them too). */
export interface KnownView {
  recent_decisions: { description: string }[];
  open_errors: (OpenError & { timestamp: string })[];
  recent_resolved_errors: (OpenError & { resolution: string; timestamp: string })[];
  side_effects?: { kind: string; summary: string; timestamp: string }[];
  test_state?: { last_test_run_at: string | null } | null;
  summaries?: { last_message: { text: string } | null } | null;
}

/**
 * What a new piece is read against: the decisions and errors recorded (not recorded again), the errors it may resolve
 * (`open`: all the open ones, which may be more than the state keeps; and those worked around or left for later, which
 * the same command succeeding later fixes), the ledger, when the work was last checked, the agent's last message.
 */
export function knownOf(view: KnownView, open: readonly OpenError[], imports: Known['imports'] = {}): Known {
  const resolved = view.recent_resolved_errors ?? [];
  return {
    imports,
    decisions: view.recent_decisions ?? [],
    errors: [...(view.open_errors ?? []), ...resolved],
    open_errors: [
      ...open,
      ...resolved.filter((e) => e.resolution === 'workaround' || e.resolution === 'deferred'),
    ],
    side_effects: view.side_effects ?? [],
    checked_at: [
      view.test_state?.last_test_run_at ?? null,
      ...[...(view.open_errors ?? []), ...resolved].map((e) => e.timestamp),
    ].filter((t): t is string => t !== null),
    last_message: view.summaries?.last_message?.text ?? null,
  };
}

/**
 * A file change the ledger already holds, made again after a check since it was recorded (a test run, an error):
 * recorded again, at this change, so that the run's result and the error are known to be older than it
 * (changedSince, editedAfter). Once per check: a file edited in every turn is not recorded every turn.
 */
function changedAgain(
  e: { kind: string; at: string | null },
  recorded: string | null,
  checks: number[],
): boolean {
  if (e.kind !== 'file_write' || !e.at || !recorded) return false;
  const [before, now] = [Date.parse(recorded), Date.parse(e.at)];
  return checks.some((t) => t > before && t < now);
}

export interface TranscriptImport {
  parsed: ParsedTranscript;
  facts: SessionFacts;
  records: RecordInput[];
  /** The agent's task-list calls, for the task graph (applied after the records). */
  task_calls: AgentTaskCall[];
  marker: ImportMarker;
  usage: UsageMetrics | null;
  newEntries: number;
  extractor: { used: string; fallback_reason: string | null };
  counts: {
    history: number;
    requests: number;
    decisions: number;
    errors: number;
    resolved: number;
    test_runs: number;
    side_effects: number;
    summaries: number;
    task_calls: number;
  };
}

/** The session's usage as Baton records it: totals so far and the current context size (the fold derives the rest). */
export function usageOf(p: ParsedTranscript): UsageMetrics | null {
  const u = p.usage;
  if (u.llm_calls === 0 && u.total_tokens === 0) return null;
  const window = u.context_window ?? contextWindowOf(p.model);
  const context = u.context_tokens;
  return {
    tokens_used: u.total_tokens,
    context_window: window,
    // computed once, by the fold, from the context size and the window
    context_utilization: null,
    tokens_remaining_estimate: null,
    llm_calls: u.llm_calls,
    tool_calls: u.tool_calls,
    cost_usd: u.cost_usd,
    session_duration_seconds: Math.round((u.duration_ms ?? 0) / 1000),
    output_tokens: u.output_tokens,
    ...(u.output_estimated ? { output_tokens_estimated: true } : {}),
    context_tokens: context,
    peak_context_tokens: u.peak_context_tokens,
  };
}

/** Lines read to tell a transcript from another file that holds some JSON lines (notes, a README's examples). */
const SAMPLE_LINES = 200;

/** How many of the first lines (blank ones aside, and a last one still being written) are not JSON objects. */
function linesNotJson(text: string): { bad: number; seen: number } {
  const lines = text.split('\n');
  if (!text.endsWith('\n')) lines.pop();
  let [bad, seen] = [0, 0];
  for (const line of lines) {
    if (seen >= SAMPLE_LINES) break;
    if (!line.trim()) continue;
    seen += 1;
    const json = parseJsonLine(line);
    if (!json.ok || typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
      bad += 1;
  }
  return { bad, seen };
}

/**
 * Decides the format of a transcript's first piece, or refuses a file of the wrong kind (a Codex rollout given as
 * Claude Code, a Gemini session, plain text, notes with a few JSON lines in them) with a message saying what the file
 * is and what to run instead.
 */
export function checkFormat(text: string, source: TranscriptSource, path: string): TranscriptFormat {
  const detected = detectTranscriptFormat(text);
  const notJson = linesNotJson(text);
  // a few transcript-like lines among others (a README's examples) make no transcript; a damaged line or two do
  if (detected && notJson.bad >= 5 && notJson.bad * 2 > notJson.seen)
    throw invalidInput(
      `${path} is not a transcript: ${notJson.bad} of its first ${notJson.seen} non-blank lines are not JSON objects (a ${agentLabel(source)} transcript holds one on each line)`,
    );
  if (detected) return checkSource(detected, source, path);
  refuseEmpty(text, path);
  throw invalidInput(
    `${path} is not a ${agentLabel(source)} transcript: none of its first lines belongs to ${formatsOf[source].map((f) => names[f]).join(' or ')}`,
  );
}

/**
 * The format, when it is the named agent's; else the refusal that says what the file is and what to run (also for a
 * file imported before, whose format its last import recorded).
 */
export function checkSource(
  format: TranscriptFormat,
  source: TranscriptSource,
  path: string,
): TranscriptFormat {
  if (formatsOf[source].includes(format)) return format;
  throw invalidInput(
    `${path} is ${names[format]}, not a ${agentLabel(source)} transcript: import it with \`baton import ${sourceOfFormat(format)} ${path}\``,
    { detected_format: format },
  );
}

/** The agent whose transcripts come in this format. */
const sourceOfFormat = (format: TranscriptFormat): TranscriptSource =>
  (Object.keys(formatsOf) as TranscriptSource[]).find((s) => formatsOf[s].includes(format)) ?? 'claude-code';

/** A file with nothing in it yet is refused as such (a hook reads it again later). */
function refuseEmpty(text: string, path: string): void {
  if (text.trim() === '')
    throw invalidInput(`${path} is empty: there is nothing to import yet`, { nothing_yet: true });
}

/**
 * Which agent wrote a transcript, read from its first lines (`baton import <file>`); a file neither agent wrote is
 * refused, saying where each agent keeps its transcripts (naming the agent would not help: its format is checked too).
 */
export function sourceOf(text: string, path: string): TranscriptSource {
  const detected = detectTranscriptFormat(text);
  if (detected) return sourceOfFormat(detected);
  refuseEmpty(text, path);
  throw invalidInput(
    `cannot tell which agent wrote ${path}: none of its first lines belongs to ${Object.values(names).slice(0, -1).join(', ')} or ${Object.values(names).at(-1)}; give a transcript file the agent wrote (Claude Code: ~/.claude/projects/<project>/<session>.jsonl; Codex: ~/.codex/sessions/<date>/rollout-*.jsonl)`,
  );
}

/** How many lines a text holds (a last one without its newline counts). */
const lineCount = (text: string) =>
  text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;

/** The entries of the lines before a piece (numbered so the last is the piece's `startLine`), for context only. */
function contextEntries(text: string, format: TranscriptFormat, startLine: number): TranscriptEntry[] {
  const lines = lineCount(text);
  if (lines <= 0 || startLine - lines < 0) return [];
  return parseTranscript(text, format, { startLine: startLine - lines }).entries.filter(
    (e) => e.line <= startLine,
  );
}

/**
 * The latest model calls of the workflow's other transcripts (its recent imports): a conversation forked from one of
 * them (`claude --resume <id> --fork-session`) starts with copies of its lines, whose usage that one counted.
 */
function countedElsewhere(known: Known, path: string | null): Set<string> {
  const others = Object.values(known.imports).filter((i) => path === null || i.path !== path);
  return new Set(others.flatMap((i) => recentCallsOf(i.parser_state)));
}

const sideEffectKey = (kind: string, summary: string) => `${kind}\u0000${summary}`;

/**
 * Where the paths a session names relative to its folder are placed: that folder's place in the worktree when strictly
 * below its root (`src/lib`); the folder itself when it is outside the worktree (a session recorded elsewhere, whose
 * tools name absolute paths there: `rm hello.js` is then the `/tmp/private/hello.js` a Write created); null at the
 * root. Either path style: git gives a Windows worktree as `C:/r`, a Windows agent its folder as `C:\\r\\src\\lib` (a
 * drive letter in either case).
 */
export function folderIn(worktree: string | null, cwd: string | null): string | null {
  if (!worktree || !cwd) return null;
  const slashes = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const root = slashes(worktree);
  const here = slashes(cwd);
  const drive = /^[A-Za-z]:\//.test(root);
  const under = drive ? here.toLowerCase().startsWith(`${root.toLowerCase()}/`) : here.startsWith(`${root}/`);
  if (under) return here.slice(root.length + 1) || null;
  return (drive ? here.toLowerCase() === root.toLowerCase() : here === root) ? null : here;
}

/**
 * Another machine's folder (not on this one) that a session recorded in `cwd` names its files under, taken as the
 * worktree's root, as the import says it takes such a session (import-file.ts `fromAnotherMachine`): the highest of
 * the workflow's transcripts' folders that is `cwd` or holds it (a later session started in a subfolder of the same
 * project names its files from there too). Null for a folder of this machine, whose paths are its own.
 */
function foreignRoot(
  known: Known,
  path: string | null,
  cwd: string | null,
  worktree: string | null,
): string | null {
  if (!cwd || !worktree || existsSync(cwd)) return null;
  const others = Object.values(known.imports)
    .filter((i) => path === null || i.path !== path)
    .map((i) => cwdOf(i.parser_state));
  const holding = [...others, cwd].filter(
    (o): o is string => !!o && nested(o, cwd) && o.length <= cwd.length,
  );
  return holding.sort((a, b) => a.length - b.length)[0] ?? null;
}

/**
 * Turns a piece of a real transcript (the lines after the last import) into Baton records, in transcript order and
 * with the transcript's timestamps: the user's requests, agent_history lines (compactions where they happened),
 * decisions and errors (and errors of earlier imports now resolved), test runs, the side-effect ledger (commits,
 * pushes, PRs, files), the agent's summaries, and the usage reading. The task-list calls are returned for the task
 * graph.
 */
export async function importTranscript(
  text: string,
  source: TranscriptSource,
  format: TranscriptFormat,
  known: Known,
  opts: {
    path?: string | null;
    extractor?: Extractor;
    taskId?: string | null;
    startLine?: number;
    state?: unknown;
    throughByte?: number;
    /** Lines an earlier import read (when it kept no byte offset): read again, not recorded again. */
    skipThroughLine?: number;
    /**
     * The lines just before this piece (an earlier import recorded them): read for context only, so what this piece
     * holds is read as one import of the whole transcript would (a correction answers the reply before it).
     */
    before?: string;
    /** The zone a usage limit's reset time without one is read in (the agent prints it in its machine's): this one. */
    zone?: string;
    /** The workflow's worktree: files a session below its root names relative to its folder are taken there. */
    worktree?: string | null;
    /** Entries from before this time are not this workflow's (the abandoned work its conversation went on from). */
    notBefore?: string | null;
  } = {},
): Promise<TranscriptImport> {
  const startLine = opts.startLine ?? 0;
  const parsed = parseTranscript(text, format, {
    startLine,
    state: opts.state,
    countedElsewhere: countedElsewhere(known, opts.path ?? null),
  });
  const abandoned = opts.notBefore ? Date.parse(opts.notBefore) : NaN;
  const fresh = parsed.entries.filter(
    (e) => e.line > (opts.skipThroughLine ?? 0) && !(e.at !== null && Date.parse(e.at) < abandoned),
  );
  const boundary = Math.max(startLine, opts.skipThroughLine ?? 0);
  const earlier = opts.before ? contextEntries(opts.before, format, startLine) : [];
  const isNew = (line: number | null | undefined) => line === null || line === undefined || line > boundary;
  const taskId = opts.taskId ?? null;
  // read from line 0 (a first import, or one read again whole): the agent said nothing before these lines
  const root = foreignRoot(known, opts.path ?? null, parsed.cwd, opts.worktree ?? null);
  const all = readSession([...earlier, ...fresh], {
    fromStart: startLine === 0,
    folder: root ? folderIn(root, parsed.cwd) : folderIn(opts.worktree ?? null, parsed.cwd),
    root,
    // a pull request an earlier import saw opened or queued to merge, which these lines may show merged
    prsBefore: known.side_effects.flatMap((e) => (e.kind === 'pr' ? [e.summary] : [])),
  });
  const facts: SessionFacts = {
    requests: all.requests.filter((r) => isNew(r.line)),
    task_calls: all.task_calls.filter((c) => isNew(c.line)),
    tasks: all.tasks,
    commits: all.commits.filter((c) => isNew(c.line)),
    effects: all.effects.filter((e) => isNew(e.line)),
    test_runs: all.test_runs.filter((t) => isNew(t.line)),
    ci_reports: all.ci_reports.filter((r) => isNew(r.line)),
    // a last message read for context (before this piece) is news when calls of this piece after it never returned:
    // the piece changes what it says, as one import of the whole transcript would have said it
    summaries: all.summaries.filter(
      (x) => isNew(x.line) || (x.open_through !== undefined && isNew(x.open_through)),
    ),
  };
  const extractor = opts.extractor ?? new RulesExtractor();
  const extracted = await extractor.extract({
    entries: [...earlier, ...fresh],
    existing: { decisions: known.decisions, errors: known.errors },
    taskId,
  });
  const found = {
    ...extracted,
    decisions: extracted.decisions.filter((d) => isNew(d.evidence_line)),
    errors: extracted.errors.filter((e) => isNew(e.evidence_line)),
  };
  const ordered: { line: number; input: RecordInput }[] = [];
  const add = (line: number, input: RecordInput) => ordered.push({ line, input });
  for (const r of facts.requests)
    add(r.line, { kind: 'request', text: r.text, at: r.at, source, agent_said: r.agent_said });
  const history = historyOf(fresh, parsed.compactions);
  for (const h of history) add(h.line, { kind: 'history', text: h.text, task_id: taskId, source, at: h.at });
  // where each was seen, when the transcript is a file (its resolution notes' "transcript line N" mean that file)
  const seen = (line: number | null) =>
    opts.path && line !== null ? { evidence: { transcript: opts.path, line } } : {};
  for (const { at, evidence_line, ...decision } of found.decisions)
    add(evidence_line ?? 0, { kind: 'decision', decision: { ...decision, ...seen(evidence_line) }, at });
  for (const { at, evidence_line, ...error } of found.errors)
    add(evidence_line ?? 0, { kind: 'error', error: { ...error, ...seen(evidence_line) }, at });
  // the lines read start at the transcript's first: its opening turn may take up an earlier conversation's failure
  const fromStart =
    !opts.skipThroughLine && (startLine === 0 || (!!opts.before && lineCount(opts.before) === startLine));
  const resolved = resolveKnown(known.open_errors, fresh, {
    path: opts.path ?? null,
    before: earlier,
    fromStart,
  });
  for (const r of resolved)
    add(r.line, { kind: 'resolution', error_id: r.error_id, resolution: r.resolution, notes: r.notes });
  for (const run of facts.test_runs) {
    const expected = run.expected_failure ? run.failing : [];
    add(run.line, {
      kind: 'test',
      at: run.at,
      test: {
        phase: run.outcome === 'fail' ? 'red' : 'green',
        // a run failed by its coverage threshold alone names the threshold, not a test; one that failed without
        // naming or counting its failures says so (a count without names is the count: failingCount)
        failing_tests:
          run.outcome === 'fail' && run.failing.length === 0 && !run.failed
            ? [run.coverage_unmet ?? '(unnamed failures)']
            : run.failing,
        expected_failures: expected,
        // the test command itself, not the shell line around it (files written before it, filters after it)
        last_test_command: run.step,
        last_test_output_summary: [
          run.passed !== null ? `${run.passed} passed` : null,
          // go without -v counts packages: "12 packages ok, 0 failed", rather than "0 failed" alone
          run.passed === null && run.packages_ok !== undefined
            ? `${run.packages_ok} package${run.packages_ok === 1 ? '' : 's'} ok`
            : null,
          run.failed !== null ? `${run.failed} failed` : null,
          run.skipped ? `${run.skipped} skipped` : null,
          run.coverage !== null ? `coverage ${run.coverage}%` : null,
        ]
          .filter(Boolean)
          .join(', '),
        passed: run.passed,
        failed: run.failed,
        skipped: run.skipped,
        coverage: run.coverage,
        runner: run.runner,
      },
    });
  }
  // the newest CI report of the piece is where CI stands (the state keeps the newest): the earlier ones are history
  const ci = facts.ci_reports.at(-1);
  if (ci) {
    const { line, at, ...report } = ci;
    add(line, { kind: 'ci', at, ci: report });
  }
  const ledger = new Map(
    known.side_effects.map((e) => [sideEffectKey(e.kind, e.summary), e.timestamp ?? null]),
  );
  const checks = [
    ...(known.checked_at ?? []),
    ...facts.test_runs.map((r) => r.at),
    ...found.errors.map((e) => e.at),
  ].flatMap((t) => (t ? [Date.parse(t)] : []));
  for (const e of facts.effects) {
    const key = sideEffectKey(e.kind, e.summary);
    if (ledger.has(key) && !changedAgain(e, ledger.get(key) ?? null, checks)) continue;
    ledger.set(key, e.at);
    add(e.line, {
      kind: 'side_effect',
      at: e.at,
      effect: { task_id: taskId, kind: e.kind, tool: e.tool, summary: e.summary },
    });
  }
  const zone = opts.zone ?? machineZone;
  for (const s of facts.summaries) {
    if (s.kind === 'last_message' && s.text === known.last_message) continue;
    add(s.open_through ?? s.line, agentSummaryInput(s, source, zone));
  }
  const records = ordered.sort((a, b) => a.line - b.line).map((o) => o.input);
  const usage = usageOf(parsed);
  if (usage && fresh.length > 0) records.push({ kind: 'usage', usage });
  const sessionId = transcriptKey(parsed.session_id ?? source, basename(opts.path ?? 'stdin'));
  const count = (kind: RecordInput['kind']) => records.filter((r) => r.kind === kind).length;
  return {
    parsed,
    facts,
    records,
    task_calls: facts.task_calls.map(({ line: _line, ...call }) => call),
    marker: {
      format,
      transcript_session_id: sessionId,
      path: opts.path ?? null,
      through_line: parsed.lines,
      ...(opts.throughByte !== undefined ? { through_byte: opts.throughByte } : {}),
      parser_state: parsed.state,
      recorded_in: { cwd: parsed.cwd, branch: branchOf(parsed.state) },
      extractor: found.extractor ?? extractor.name,
      fallback_reason: found.fallback_reason ?? null,
    },
    usage,
    newEntries: fresh.length,
    extractor: { used: found.extractor ?? extractor.name, fallback_reason: found.fallback_reason ?? null },
    counts: {
      history: count('history'),
      requests: count('request'),
      decisions: count('decision'),
      errors: count('error'),
      resolved: count('resolution'),
      test_runs: count('test'),
      side_effects: count('side_effect'),
      summaries: count('summary'),
      task_calls: facts.task_calls.length,
    },
  };
}
