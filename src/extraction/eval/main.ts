import { parseArgs } from 'node:util';
import { RulesExtractor } from '../rules/rules-extractor.js';
import { formatReport, runEval } from './run-eval.js';

/** `npm run eval [-- --corpus <dir>] [--labels <dir>] [--json]`: score the rules extractor on the hand labels. */
const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    labels: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const report = await runEval(new RulesExtractor(), { corpus: values.corpus, labels: values.labels });
process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
