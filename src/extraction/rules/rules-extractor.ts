import {
  recent,
  toEntries,
  type ExtractionInput,
  type ExtractionResult,
  type Extractor,
} from '../extractor.js';
import { dedupe } from '../similarity.js';
import { findDecisions } from './decisions/decision-rules.js';
import { findErrors } from './errors/error-rules.js';

/** The offline, deterministic extractor: error and decision rules over transcript entries. */
export class RulesExtractor implements Extractor {
  readonly name = 'rules';

  extract(input: ExtractionInput): Promise<ExtractionResult> {
    return Promise.resolve(extractWithRules(input));
  }
}

export function extractWithRules(input: ExtractionInput): ExtractionResult {
  const entries = recent(toEntries(input.entries), input.maxEntries ?? 0);
  const taskId = input.taskId ?? null;
  const knownDecisions = (input.existing?.decisions ?? []).map((d) => d.description);
  const knownErrors = (input.existing?.errors ?? []).map((e) => e.error_message);
  return {
    extractor: 'rules',
    decisions: dedupe(findDecisions(entries, taskId), (d) => d.description, knownDecisions),
    // error messages share long tool boilerplate ("The user doesn't want to proceed..."): a stricter threshold
    errors: dedupe(findErrors(entries, taskId), (e) => e.error_message, knownErrors, 0.85),
  };
}
