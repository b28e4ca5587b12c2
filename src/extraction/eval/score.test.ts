import { describe, expect, it } from 'vitest';
import type { DecisionDraft } from '../extractor.js';
import type { LabelFile } from './labels.js';
import { missesOf } from './score.js';

const decision = (line: number, description: string): DecisionDraft => ({
  decision_type: 'approach',
  description,
  rationale: '',
  alternatives_considered: [],
  task_id: null,
  evidence_line: line,
  at: '2026-11-29T00:00:00.000Z',
});
const labelled = (evidence: number[], description: string) => ({
  evidence,
  decision_type: 'approach' as const,
  description,
  rationale: '',
  alternatives_considered: [],
});

describe('pairing predictions with labels', () => {
  it('pairs as many as can be paired, whatever order the predictions come in', () => {
    // the first prediction could take either label; taking the first would leave the second prediction unpaired
    const label = {
      errors: [],
      decisions: [labelled([10, 20], 'both lines'), labelled([10], 'line 10 only')],
    } as unknown as LabelFile;
    const m = missesOf(label, { errors: [], decisions: [decision(10, 'a'), decision(20, 'b')] });
    expect(m.decisions.missed).toEqual([]);
    expect(m.decisions.extra).toEqual([]);
  });

  it('leaves a second prediction of one label extra', () => {
    const label = { errors: [], decisions: [labelled([10], 'one')] } as unknown as LabelFile;
    const m = missesOf(label, { errors: [], decisions: [decision(10, 'a'), decision(10, 'b')] });
    expect(m.decisions.extra.map((e) => e.text)).toEqual(['b']);
  });
});
