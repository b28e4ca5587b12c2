import {
  counted,
  itemSaid,
  conflictWords,
  shortHash,
  type Decision,
  type ApiFailureStanding,
  type ErrorRecord,
  type ErrorShown,
  type GitState,
  type HistoryEntry,
  type ReviewerFeedback,
  type Summary,
  type Task,
  type TestState,
  type UserRequest,
  type Surface,
} from '../core/index.js';
import { emptyDetailsWords } from './empty-details.js';
import { isDetailsPage, type DetailsPage } from './details-page.js';
import { isLiveSnapshotId, type DetailCategory, type DetailsResult } from './queries.js';

/** Text kept whole, each line under a heading indented (a request or a summary runs to many lines). */
const indented = (text: string, by = '  ') =>
  text
    .split('\n')
    .map((l) => (l ? `${by}${l}` : l))
    .join('\n');

/** The parts of a heading that are there, two spaces apart. */
const heading = (...parts: (string | null | undefined | false)[]) => parts.filter(Boolean).join('  ');

const taskOf = (id: string | null | undefined) => (id ? `task ${id}` : null);

/** Where a record read from a transcript was seen. */
const seenAt = (r: Decision | ErrorRecord) =>
  r.evidence ? [indented(`seen at: line ${r.evidence.line} of ${r.evidence.transcript}`)] : [];

const decisionText = (d: Decision) =>
  [
    heading(d.id, d.timestamp, taskOf(d.task_id), d.decision_type),
    indented(d.description),
    ...(d.rationale ? [indented(`why: ${d.rationale}`)] : []),
    ...(d.alternatives_considered?.length
      ? [indented(`instead of: ${d.alternatives_considered.join('; ')}`)]
      : []),
    ...seenAt(d),
  ].join('\n');

/**
 * What an API failure is, in place of its record's resolution (`api_failure`, set by the one rule): the stop of the
 * last turn, or over; never an unresolved error of the work.
 */
const apiFailureSaid: Record<ApiFailureStanding, { status: string; note: string }> = {
  cut_off: {
    status: 'API FAILURE: CUT OFF THE LAST TURN',
    note: 'the API failed under the agent, no error of the work: the request that turn was on may not have been carried out; retry it',
  },
  over: {
    status: 'API FAILURE: OVER',
    note: 'the API failed under the agent, no error of the work: the agent went on after it, or the user asked again',
  },
};

const errorText = (e: ErrorShown) =>
  [
    heading(
      e.id,
      e.timestamp,
      taskOf(e.task_id),
      e.error_type,
      e.api_failure ? apiFailureSaid[e.api_failure].status : e.resolution.toUpperCase(),
    ),
    indented(e.error_message),
    ...(e.api_failure ? [indented(apiFailureSaid[e.api_failure].note)] : []),
    ...(e.context ? [indented(`context: ${e.context}`)] : []),
    ...(e.resolution_notes ? [indented(`resolution: ${e.resolution_notes}`)] : []),
    ...seenAt(e),
  ].join('\n');

const feedbackText = (f: ReviewerFeedback) =>
  [
    heading(
      f.review_id,
      f.timestamp,
      f.reviewer_persona,
      f.approved ? 'approved' : 'changes requested',
      f.severity && `severity ${f.severity}`,
      f.addressed ? 'addressed' : 'not addressed',
    ),
    ...f.comments.map((c) => indented(`- ${c}`)),
  ].join('\n');

const historyText = (h: HistoryEntry) =>
  [heading(h.timestamp, `session ${h.session_number}`, taskOf(h.task_id), h.source), indented(h.text)].join(
    '\n',
  );

const requestText = (r: UserRequest) =>
  [
    heading(r.id, r.at ?? r.timestamp, `session ${r.session_number}`, r.source),
    indented(r.text),
    ...(r.refers_to ? [indented(`(${itemSaid(r.refers_to)})`)] : []),
  ].join('\n');

const summaryText = (s: Summary) =>
  [
    heading(
      s.id,
      s.timestamp,
      `session ${s.session_number}`,
      s.kind,
      s.source,
      s.turn_ended === true && 'turn ended',
      s.said_nothing === true && 'said nothing',
      s.resets_at && `resets at ${s.resets_at}`,
    ),
    indented(s.text),
  ].join('\n');

/** A task of the graph: its status and when, what it waits for, its note (a done task's summary, a failure's cause). */
const taskText = (t: Task) =>
  [
    heading(
      t.id,
      t.status.toUpperCase(),
      t.session_number !== null && `session ${t.session_number}`,
      t.deps.length > 0 && `after ${t.deps.join(', ')}`,
      t.lane > 0 && `lane ${t.lane}`,
      (t.failures ?? 0) > 1 && `failed ${t.failures} times in a row`,
    ),
    indented(t.title),
    ...(t.started_at ? [indented(`started: ${t.started_at}`)] : []),
    ...(t.ended_at ? [indented(`ended: ${t.ended_at}`)] : []),
    ...(t.note ? [indented(`${t.status === 'done' ? 'summary' : 'note'}: ${t.note}`)] : []),
    ...(t.description.trim() ? [indented(t.description.trim())] : []),
  ].join('\n');

/** The records of a category, newest last (the tasks in the graph's order), each as a heading and its text whole. */
const records: Partial<
  Record<DetailCategory, { one: string; many?: string; order?: string; text: (r: never) => string }>
> = {
  decisions: { one: 'decision', text: decisionText },
  errors: { one: 'error', text: errorText },
  'reviewer-feedback': { one: 'review', text: feedbackText },
  history: { one: 'history entry', many: 'history entries', text: historyText },
  requests: { one: 'request', text: requestText },
  summaries: { one: 'summary', many: 'summaries', text: summaryText },
  tasks: { one: 'task', order: "in the graph's order", text: taskText },
};

const list = (label: string, items: string[]) =>
  items.length ? [`${label}:`, ...items.map((i) => indented(`- ${i}`))] : [];

function gitText(g: GitState | null, note: string | null): string[] {
  if (!g) return [`git: ${note ?? 'not recorded'}`];
  const head = g.commit_at_snapshot
    ? `${shortHash(g.commit_at_snapshot)}${g.head_subject ? ` "${g.head_subject}"` : ''}`
    : '(no commits)';
  const w = g.work_commits;
  return [
    // files still holding conflict markers: said first, before "uncommitted" reads as work to commit
    ...(g.conflict ? [`conflict: ${conflictWords(g.conflict)}`] : []),
    `branch: ${g.branch}`,
    `HEAD: ${head}`,
    `at the workflow's start: ${g.commit_at_workflow_start ? shortHash(g.commit_at_workflow_start) : 'no commit'}`,
    `uncommitted: ${g.has_uncommitted_changes ? (g.uncommitted_summary ?? 'yes') : 'none'}`,
    ...list('changed since the workflow began', g.files_modified),
    ...list('staged', g.files_staged),
    ...list("only Baton's instructions block changed", g.baton_block ?? []),
    ...(w
      ? w.listed.length || w.more
        ? [
            `commits since the workflow began (${w.began_at})${w.more ? `, the newest ${w.listed.length} of ${w.listed.length + w.more}` : ''}, oldest first:`,
            ...w.listed.map((c) =>
              indented(`${shortHash(c.hash)} ${c.subject}${c.elsewhere ? ' (made elsewhere)' : ''}`),
            ),
          ]
        : [`commits since the workflow began (${w.began_at}): none`]
      : []),
    ...(note ? [`note: ${note}`] : []),
  ];
}

const counts = (t: TestState) =>
  [
    t.passed != null && `${t.passed} passed`,
    t.failed != null && `${t.failed} failed`,
    t.skipped != null && `${t.skipped} skipped`,
    t.coverage != null && `coverage ${t.coverage}%`,
    t.runner,
  ]
    .filter(Boolean)
    .join(', ');

/** One test run (or the last one of a test state) in a line: when, the command, and what it said. */
const runLine = (t: TestState) =>
  heading(
    t.last_test_run_at,
    t.last_test_command ?? '(no command)',
    t.last_test_output_summary && `-> ${t.last_test_output_summary}`,
    `(${[t.phase, counts(t)].filter(Boolean).join(', ')})`,
  );

function testText(t: TestState | null, runs: TestState[]): string[] {
  return [
    ...(t
      ? [
          `phase: ${t.phase}`,
          `last run: ${t.last_test_command || t.last_test_run_at ? runLine(t) : 'none recorded'}`,
          ...list('failing', t.failing_tests),
          ...list('expected to fail', t.expected_failures),
          ...list(
            `not run since an earlier run${t.not_run_again?.command ? ` (${t.not_run_again.command})` : ''} failed them`,
            t.not_run_again?.tests ?? [],
          ),
        ]
      : ['test state: not recorded']),
    runs.length ? `${counted(runs.length, 'test run')}, oldest first:` : 'test runs: none recorded',
    ...runs.map((r) => indented(runLine(r))),
  ];
}

/**
 * How to read the records older than a page, in the words of the surface it is shown on: the same category (and
 * snapshot) with `before`.
 */
function olderWords(category: DetailCategory, p: DetailsPage, snapshotId: string | null, surface: Surface) {
  const older = p.from - 1;
  const limit = p.to - p.from + 1;
  const how =
    surface === 'mcp'
      ? `call get_details again with before: ${p.from} (and limit, up to ${older})`
      : `\`baton details ${snapshotId ? `${snapshotId} ` : ''}${category} --limit ${limit} --before ${p.from}\``;
  return `${older} older not shown: ${how}`;
}

/**
 * `baton details` for a person, and the MCP tool get_details for an agent: every record of the category (or the page
 * of them asked for), each whole, oldest first, or the git changes or the test state; `--json` prints the same as it
 * is stored. `snapshotId` is the snapshot read (null: the workflow as it stands); `surface` words the way to the
 * older records of a page.
 */
export function detailsText(
  category: DetailCategory,
  d: DetailsResult,
  snapshotId: string | null,
  surface: Surface = 'cli',
): string {
  // a live id names no stored snapshot: what it reads is the workflow now, newer records included
  const of = !snapshotId
    ? 'the workflow as it stands'
    : isLiveSnapshotId(snapshotId)
      ? `the workflow as it stands now; ${snapshotId} names it live, so records since are included`
      : `as of snapshot ${snapshotId}`;
  const kind = records[category];
  const page = isDetailsPage(d) ? d : null;
  const shown = page ? page.records : d;
  if (kind && Array.isArray(shown)) {
    const total = page ? page.total : shown.length;
    const title = counted(total, kind.one, kind.many);
    if (!total) {
      const why = emptyDetailsWords(category);
      return `${title.replace(/^0 /, 'no ')} (${of})${why ? `: ${why}` : ''}`;
    }
    // a page of them: which, and how to read the older ones
    const part = page && shown.length < total ? `${page.from}-${page.to} of ` : '';
    const older = page?.next_before ? [`\n${olderWords(category, page, snapshotId, surface)}`] : [];
    return [
      `${part}${title} (${of}), ${kind.order ?? 'oldest first'}:`,
      ...shown.map((r) => `\n${kind.text(r as never)}`),
      ...older,
    ].join('\n');
  }
  if (category === 'git-changes' && !Array.isArray(d) && 'git_state' in d)
    return [`git changes (${of}):`, ...gitText(d.git_state, d.note)].join('\n');
  if (category === 'test-state' && !Array.isArray(d) && 'test_state' in d)
    return [`test state (${of}):`, ...testText(d.test_state, d.runs as TestState[])].join('\n');
  // a shape this version does not know (a newer server's): as it is
  return JSON.stringify(d, null, 2);
}
