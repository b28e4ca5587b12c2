import { describe, expect, it } from 'vitest';
import { corpusRoot } from '../../../test/helpers/corpus.js';
import { RulesExtractor } from '../rules/rules-extractor.js';
import { loadLabels } from './labels.js';
import { formatReport, runEval } from './run-eval.js';

describe('evaluation of the rules extractor against the hand labels', () => {
  it('has at least six labelled real transcripts, none from holdout', () => {
    const labels = loadLabels();
    expect(labels.length).toBeGreaterThanOrEqual(6);
    expect(labels.every(({ label }) => !label.corpus.startsWith('holdout'))).toBe(true);
  });

  it('meets the targets: error recall >= 0.8, decision recall >= 0.6, precision >= 0.7 each', async () => {
    const report = await runEval(new RulesExtractor(), { corpus: corpusRoot });
    const table = formatReport(report);
    expect(table).toContain('error resolution accuracy');
    expect(report.errors.recall, table).toBeGreaterThanOrEqual(0.8);
    expect(report.errors.precision, table).toBeGreaterThanOrEqual(0.7);
    expect(report.decisions.recall, table).toBeGreaterThanOrEqual(0.6);
    expect(report.decisions.precision, table).toBeGreaterThanOrEqual(0.7);
  });
});
