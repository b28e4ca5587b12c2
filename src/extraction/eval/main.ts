import { parseArgs } from 'node:util';
import { labelSplits, type LabelSplit } from './labels.js';
import { RulesExtractor } from '../rules/rules-extractor.js';
import { measureProbes, probeFiles, readProbes } from './decision-probes.js';
import { formatMisses, formatProbes, formatReport, reportView, runEval } from './run-eval.js';

/**
 * `npm run eval [-- --corpus <dir>] [--labels <dir>] [--split tuning|untuned] [--misses] [--json]`: read every
 * hand-labelled transcript the way an import does and print precision and recall per category, the untuned split
 * against the targets, and the decision rules on the blind probe sentences (decision-probes-blind.txt: scores only,
 * never its cases); `--misses` lists, per file, the labelled errors and decisions missed and the extra ones found
 * of the tuning split: the untuned split's only with `--split untuned` (reading them makes it a tuning split); `--json`
 * prints the same files, with misses only as `--misses` shows them.
 */
const usage = `usage: npm run eval -- [--corpus <dir>] [--labels <dir>] [--split ${labelSplits.join('|')}] [--misses] [--json]
  --corpus <dir>  where the labelled transcripts are (default: $BATON_CORPUS, else test/fixtures/corpus)
  --labels <dir>  the label files (default: test/fixtures/labels)
  --split <name>  only the files of that split
  --misses        per file, the labelled errors and decisions missed and the extra ones found, of the tuning split
                  (the untuned split's only with --split untuned: reading them makes it a tuning split)
  --json          the whole report as JSON
`;
let parsed;
try {
  parsed = parseArgs({
    options: {
      corpus: { type: 'string' },
      labels: { type: 'string' },
      split: { type: 'string' },
      json: { type: 'boolean', default: false },
      misses: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (e) {
  process.stderr.write(`error: ${(e as Error).message}\n${usage}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const split = values.split as LabelSplit | undefined;
if (split !== undefined && !labelSplits.includes(split)) {
  process.stderr.write(`error: --split must be one of ${labelSplits.join(', ')}\n${usage}`);
  process.exit(2);
}
const rules = new RulesExtractor();
const report = await runEval(rules, { corpus: values.corpus, labels: values.labels });
const { rows: _cases, ...blind } = await measureProbes(rules, readProbes(probeFiles.blind));
const probes = split === 'tuning' || values.misses ? '' : `\n\n${formatProbes(blind)}`;
const text = values.misses ? formatMisses(report, split) : formatReport(report, split);
process.stdout.write(
  values.json
    ? `${JSON.stringify({ ...reportView(report, { only: split, misses: values.misses }), blind_decision_probes: blind }, null, 2)}\n`
    : `${text}${probes}\n`,
);
