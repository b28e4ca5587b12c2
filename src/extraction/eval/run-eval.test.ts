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
    expect(labels.filter((l) => l.label.split === 'untuned').length).toBeGreaterThanOrEqual(8);
  });

  it('prints precision and recall per category and split; goal, commits, task list and last test state hold everywhere', async () => {
    const report = await runEval(new RulesExtractor(), { corpus: fixtureCorpusRoot });
    const table = formatReport(report);
    expect(table).toMatch(/untuned split: the rules were not tuned on these \(\d+ files\)/);
    for (const c of ['goal', 'commits', 'tasks', 'errors', 'decisions']) expect(table).toContain(`  ${c} `);
    // the split the rules were tuned on meets every target
    expect(missedTargets(report.tuning), table).toEqual([]);
    // errors on the tuning split since the failure signals of every format are read (17/17/18 on 2026-11-25)
    expect(report.tuning.metrics.errors.recall, table).toBeGreaterThanOrEqual(0.94);
    expect(report.tuning.metrics.errors.precision, table).toBe(1);
    // the untuned split: the session facts meet their 100% targets; errors and decisions do not yet (the figures
    // are in docs/transcripts.md). These floors are the figures of 2026-11-25 on the 8 untuned files (errors
    // 10/12/23, decisions 7/16/40): they stop a regression, they are not the targets, and the table says which
    // targets are missed.
    expect(missedTargets(report.untuned), table).not.toContain('goal');
    expect(missedTargets(report.untuned), table).not.toContain('commits');
    expect(missedTargets(report.untuned), table).not.toContain('tasks');
    expect(report.untuned.files, table).toBeGreaterThanOrEqual(8);
    expect(report.untuned.last_test_accuracy, table).toBe(1);
    expect(report.untuned.metrics.errors.precision, table).toBeGreaterThanOrEqual(0.8);
    expect(report.untuned.metrics.errors.recall, table).toBeGreaterThanOrEqual(0.43);
    expect(report.untuned.metrics.decisions.precision, table).toBeGreaterThanOrEqual(0.43);
    expect(report.untuned.metrics.decisions.recall, table).toBeGreaterThanOrEqual(0.17);
    const missed = missedTargets(report.untuned);
    expect(table).toContain(
      missed.length
        ? `untuned split misses the targets for: ${missed.join(', ')}`
        : 'untuned split meets every target',
    );
  });
});
