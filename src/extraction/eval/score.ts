import type { DecisionDraft, ErrorDraft } from '../extractor.js';
import type { LabelFile } from './labels.js';

export interface Counts {
  predicted: number;
  labelled: number;
  matched: number;
}

export interface FileScore {
  errors: Counts;
  decisions: Counts;
  /** Matched errors whose resolution equals the label's. */
  resolutionsRight: number;
  /** Matched decisions whose type equals the label's. */
  typesRight: number;
}

/** One-to-one matching: a prediction matches an unmatched label whose evidence lines contain its line. */
function match<P extends { evidence_line: number | null }, L extends { evidence: number[] }>(
  predicted: readonly P[],
  labelled: readonly L[],
): [P, L][] {
  const used = new Set<number>();
  const pairs: [P, L][] = [];
  for (const p of predicted) {
    const i = labelled.findIndex(
      (l, index) => !used.has(index) && p.evidence_line !== null && l.evidence.includes(p.evidence_line),
    );
    if (i < 0) continue;
    used.add(i);
    pairs.push([p, labelled[i] as L]);
  }
  return pairs;
}

export function scoreFile(
  label: LabelFile,
  result: { decisions: DecisionDraft[]; errors: ErrorDraft[] },
): FileScore {
  const errorPairs = match(result.errors, label.errors);
  const decisionPairs = match(result.decisions, label.decisions);
  return {
    errors: { predicted: result.errors.length, labelled: label.errors.length, matched: errorPairs.length },
    decisions: {
      predicted: result.decisions.length,
      labelled: label.decisions.length,
      matched: decisionPairs.length,
    },
    resolutionsRight: errorPairs.filter(([p, l]) => p.resolution === l.resolution).length,
    typesRight: decisionPairs.filter(([p, l]) => p.decision_type === l.decision_type).length,
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
  const add = (k: 'errors' | 'decisions'): Counts => ({
    predicted: scores.reduce((n, s) => n + s[k].predicted, 0),
    labelled: scores.reduce((n, s) => n + s[k].labelled, 0),
    matched: scores.reduce((n, s) => n + s[k].matched, 0),
  });
  return {
    errors: add('errors'),
    decisions: add('decisions'),
    resolutionsRight: scores.reduce((n, s) => n + s.resolutionsRight, 0),
    typesRight: scores.reduce((n, s) => n + s.typesRight, 0),
  };
}
