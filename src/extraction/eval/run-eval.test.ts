import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureCorpusRoot } from '../../../test/helpers/corpus.js';
import { RulesExtractor } from '../rules/rules-extractor.js';
import { loadLabels } from './labels.js';
import { formatReport, missedTargets, runEval } from './run-eval.js';

describe('evaluation against the hand labels', () => {
  it('has at least twelve labelled real transcripts, copied into the fixtures, none from holdout, both splits', () => {
    const labels = loadLabels();
    expect(labels.length).toBeGreaterThanOrEqual(12);
    for (const { name, label } of labels) {
      expect(label.corpus.startsWith('holdout'), name).toBe(false);
      expect(existsSync(join(fixtureCorpusRoot, label.corpus)), `${name}: ${label.corpus}`).toBe(true);
    }
    expect(labels.filter((l) => l.label.split === 'untuned').length).toBeGreaterThanOrEqual(5);
  });

  it('meets the targets on the untuned split, and prints precision and recall per category', async () => {
    const report = await runEval(new RulesExtractor(), { corpus: fixtureCorpusRoot });
    const table = formatReport(report);
    expect(table).toMatch(/untuned split: the rules were not tuned on these \(\d+ files\)/);
    for (const c of ['goal', 'commits', 'tasks', 'errors', 'decisions']) expect(table).toContain(`  ${c} `);
    expect(missedTargets(report.untuned), table).toEqual([]);
    expect(report.untuned.last_test_accuracy, table).toBe(1);
  });
});
