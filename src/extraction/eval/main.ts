import { parseArgs } from 'node:util';
import { labelSplits, type LabelSplit } from './labels.js';
import { RulesExtractor } from '../rules/rules-extractor.js';
import { formatMisses, formatReport, runEval } from './run-eval.js';

/**
 * `npm run eval [-- --corpus <dir>] [--labels <dir>] [--split tuning|untuned] [--misses] [--json]`: read every
 * hand-labelled transcript the way an import does and print precision and recall per category, the untuned split
 * against the targets; `--misses` lists, per file, the labelled errors and decisions missed and the extra ones found
 * (to tune on the tuning split only: reading the untuned split's misses makes it a tuning split).
 */
const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    labels: { type: 'string' },
    split: { type: 'string' },
    json: { type: 'boolean', default: false },
    misses: { type: 'boolean', default: false },
  },
});
const split = values.split as LabelSplit | undefined;
if (split !== undefined && !labelSplits.includes(split)) {
  process.stderr.write(`--split must be one of ${labelSplits.join(', ')}\n`);
  process.exit(2);
}
const report = await runEval(new RulesExtractor(), { corpus: values.corpus, labels: values.labels });
const text = values.misses ? formatMisses(report, split) : formatReport(report, split);
process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${text}\n`);
