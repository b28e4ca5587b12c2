import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTranscript } from '../../agents/parse-transcript.js';
import type { Extractor } from '../extractor.js';
import { findCorpus, loadLabels } from './labels.js';
import { metrics, scoreFile, sum, type FileScore } from './score.js';

export interface EvalReport {
  extractor: string;
  files: { name: string; corpus: string; score: FileScore }[];
  total: FileScore;
  errors: { precision: number; recall: number };
  decisions: { precision: number; recall: number };
  resolution_accuracy: number;
  decision_type_accuracy: number;
}

/** Run an extractor over every labelled transcript and score it against the labels. */
export async function runEval(
  extractor: Extractor,
  options: { corpus?: string; labels?: string } = {},
): Promise<EvalReport> {
  const corpus = findCorpus(options.corpus);
  const files: EvalReport['files'] = [];
  for (const { name, label } of loadLabels(options.labels)) {
    const transcript = parseTranscript(readFileSync(join(corpus, label.corpus), 'utf8'));
    const result = await extractor.extract({ entries: transcript.entries, maxEntries: 0 });
    files.push({ name, corpus: label.corpus, score: scoreFile(label, result) });
  }
  const total = sum(files.map((f) => f.score));
  return {
    extractor: extractor.name,
    files,
    total,
    errors: metrics(total.errors),
    decisions: metrics(total.decisions),
    resolution_accuracy: total.errors.matched === 0 ? 0 : total.resolutionsRight / total.errors.matched,
    decision_type_accuracy: total.decisions.matched === 0 ? 0 : total.typesRight / total.decisions.matched,
  };
}

const pct = (n: number) => n.toFixed(2).padStart(5);
const counts = (c: { predicted: number; labelled: number; matched: number }) =>
  `${String(c.matched).padStart(3)}/${String(c.predicted).padStart(3)}/${String(c.labelled).padStart(3)}`;

/** A plain-text table: per file matched/predicted/labelled, then precision and recall per category. */
export function formatReport(report: EvalReport): string {
  const rows = report.files.map(
    (f) => `${f.name.padEnd(30)} errors ${counts(f.score.errors)}   decisions ${counts(f.score.decisions)}`,
  );
  return [
    `extractor: ${report.extractor}    (matched/predicted/labelled)`,
    ...rows,
    '',
    'category              precision  recall',
    `errors                    ${pct(report.errors.precision)}   ${pct(report.errors.recall)}`,
    `decisions                 ${pct(report.decisions.precision)}   ${pct(report.decisions.recall)}`,
    `error resolution accuracy ${pct(report.resolution_accuracy)}  (${report.total.resolutionsRight}/${report.total.errors.matched} matched errors)`,
    `decision type accuracy    ${pct(report.decision_type_accuracy)}  (${report.total.typesRight}/${report.total.decisions.matched} matched decisions)`,
  ].join('\n');
}
