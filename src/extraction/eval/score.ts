import type { DecisionDraft, ErrorDraft } from '../extractor.js';
import type { SessionFacts } from '../session/index.js';
import type { LabelFile } from './labels.js';

export interface Counts {
  predicted: number;
  labelled: number;
  matched: number;
}

export const categories = ['goal', 'commits', 'tasks', 'errors', 'decisions'] as const;
export type Category = (typeof categories)[number];

export interface FileScore {
  goal: Counts;
  commits: Counts;
  tasks: Counts;
  errors: Counts;
  decisions: Counts;
  /** Matched errors whose resolution equals the label's. */
  resolutionsRight: number;
  /** Matched decisions whose type equals the label's. */
  typesRight: number;
  /** 1 when the last test state (command, outcome, counts) is the label's, else 0. */
  lastTestRight: number;
}

/** Which unit of evidence a line belongs to (the lines of one model message are one: message-units.ts). */
export type UnitOf = (line: number) => number;
const alone: UnitOf = (line) => line;

/**
 * One-to-one matching: a prediction matches an unmatched label one of whose evidence lines is in the prediction's
 * unit (its line, or another line of the same model message). The pairing is a maximum one (augmenting paths), so a
 * prediction that could take either of two labels never takes the one a later prediction alone could match.
 */
function match<P extends { evidence_line: number | null }, L extends { evidence: number[] }>(
  predicted: readonly P[],
  labelled: readonly L[],
  unitOf: UnitOf = alone,
): [P, L][] {
  const fits = predicted.map((p) => {
    const at = p.evidence_line === null ? null : unitOf(p.evidence_line);
    return labelled.flatMap((l, i) => (at !== null && l.evidence.some((e) => unitOf(e) === at) ? [i] : []));
  });
  /** The prediction holding each label, if any. */
  const holder = new Map<number, number>();
  const place = (p: number, seen: Set<number>): boolean => {
    for (const l of fits[p] ?? []) {
      if (seen.has(l)) continue;
      seen.add(l);
      const other = holder.get(l);
      if (other === undefined || place(other, seen)) {
        holder.set(l, p);
        return true;
      }
    }
    return false;
  };
  predicted.forEach((_, p) => place(p, new Set()));
  return [...holder].sort(([, a], [, b]) => a - b).map(([l, p]) => [predicted[p] as P, labelled[l] as L]);
}

/** What one file's labels and predictions did not pair up: the labelled items missed, the predictions extra. */
export interface Misses {
  errors: {
    missed: { evidence: number[]; text: string }[];
    extra: { line: number | null; text: string }[];
    /** Errors found and labelled whose fate (resolution) differs from the label's. */
    wrong_fate: { line: number | null; text: string; found: string; labelled: string }[];
  };
  decisions: {
    missed: { evidence: number[]; text: string }[];
    extra: { line: number | null; text: string }[];
  };
}

export function missesOf(
  label: LabelFile,
  result: { decisions: DecisionDraft[]; errors: ErrorDraft[] },
  unitOf: UnitOf = alone,
): Misses {
  const apart = <P extends { evidence_line: number | null }, L extends { evidence: number[] }>(
    predicted: readonly P[],
    labelled: readonly L[],
    textOf: { p: (p: P) => string; l: (l: L) => string },
  ) => {
    const pairs = match(predicted, labelled, unitOf);
    return {
      missed: labelled
        .filter((l) => !pairs.some(([, m]) => m === l))
        .map((l) => ({ evidence: l.evidence, text: textOf.l(l) })),
      extra: predicted
        .filter((p) => !pairs.some(([m]) => m === p))
        .map((p) => ({ line: p.evidence_line, text: textOf.p(p) })),
    };
  };
  const wrongFate = match(result.errors, label.errors, unitOf)
    .filter(([p, l]) => p.resolution !== l.resolution)
    .map(([p, l]) => ({
      line: p.evidence_line,
      text: p.error_message,
      found: p.resolution,
      labelled: l.resolution,
    }));
  return {
    errors: {
      ...apart(result.errors, label.errors, { p: (p) => p.error_message, l: (l) => l.error_message }),
      wrong_fate: wrongFate,
    },
    decisions: apart(result.decisions, label.decisions, { p: (p) => p.description, l: (l) => l.description }),
  };
}

const counts = (predicted: number, labelled: number, matched: number): Counts => ({
  predicted,
  labelled,
  matched,
});
const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function lastTestRight(label: LabelFile['last_test'], facts: SessionFacts): number {
  const run = facts.test_runs.at(-1) ?? null;
  if (label === null || run === null) return label === run ? 1 : 0;
  const sameCounts =
    (label.passed === null || label.passed === run.passed) &&
    (label.failed === null || label.failed === run.failed);
  return norm(label.command) === norm(run.command) && label.outcome === run.outcome && sameCounts ? 1 : 0;
}

export function scoreFile(
  label: LabelFile,
  facts: SessionFacts,
  result: { decisions: DecisionDraft[]; errors: ErrorDraft[] },
  unitOf: UnitOf = alone,
): FileScore {
  const errorPairs = match(result.errors, label.errors, unitOf);
  const decisionPairs = match(result.decisions, label.decisions, unitOf);
  const requests = facts.requests.map((r) => ({ evidence_line: r.line }));
  const hashes = new Set(label.commits.map((c) => c.hash.slice(0, 7)));
  const labelledTasks = new Set(label.final_tasks.map((t) => `${norm(t.content)}|${t.status}`));
  return {
    goal: counts(requests.length, label.goal.length, match(requests, label.goal).length),
    commits: counts(
      facts.commits.length,
      label.commits.length,
      facts.commits.filter((c) => hashes.has(c.hash.slice(0, 7))).length,
    ),
    tasks: counts(
      facts.tasks.length,
      label.final_tasks.length,
      facts.tasks.filter((t) => labelledTasks.has(`${norm(t.content)}|${t.status}`)).length,
    ),
    errors: counts(result.errors.length, label.errors.length, errorPairs.length),
    decisions: counts(result.decisions.length, label.decisions.length, decisionPairs.length),
    resolutionsRight: errorPairs.filter(([p, l]) => p.resolution === l.resolution).length,
    typesRight: decisionPairs.filter(([p, l]) => p.decision_type === l.decision_type).length,
    lastTestRight: lastTestRight(label.last_test, facts),
  };
}

export interface Metrics {
  precision: number;
  recall: number;
}

export const metrics = (c: Counts): Metrics => ({
  precision: c.predicted === 0 ? 1 : c.matched / c.predicted,
  recall: c.labelled === 0 ? 1 : c.matched / c.labelled,
});

export function sum(scores: readonly FileScore[]): FileScore {
  const add = (k: Category): Counts => ({
    predicted: scores.reduce((n, s) => n + s[k].predicted, 0),
    labelled: scores.reduce((n, s) => n + s[k].labelled, 0),
    matched: scores.reduce((n, s) => n + s[k].matched, 0),
  });
  const total = (k: 'resolutionsRight' | 'typesRight' | 'lastTestRight') =>
    scores.reduce((n, s) => n + s[k], 0);
  return {
    goal: add('goal'),
    commits: add('commits'),
    tasks: add('tasks'),
    errors: add('errors'),
    decisions: add('decisions'),
    resolutionsRight: total('resolutionsRight'),
    typesRight: total('typesRight'),
    lastTestRight: total('lastTestRight'),
  };
}
