import type { TranscriptEntry } from '../../agents/transcript-types.js';
import {
  defaultMaxEntries,
  recent,
  toEntries,
  type DecisionDraft,
  type ErrorDraft,
  type ExtractionInput,
  type ExtractionResult,
  type Extractor,
} from '../extractor.js';
import { RulesExtractor } from '../rules/rules-extractor.js';
import { dedupe } from '../similarity.js';
import { extractionPrompt, formatHistory, parseAnswer, type LlmAnswer } from './extraction-prompt.js';
import { complete, LlmHttpError, type LlmClientOptions } from './llm-client.js';

export interface LlmExtractorOptions extends LlmClientOptions {
  /** Upper bound for the whole extraction, retries included (default 30 s): a pause never waits longer. */
  timeoutMs?: number;
  /** Attempts for answers that are not valid JSON of the schema (default 3). */
  maxAttempts?: number;
  /** Used when the endpoint fails, times out or never answers validly (default: the rules extractor). */
  fallback?: Extractor;
}

/** Extraction by a model behind the Anthropic Messages API or an OpenAI-compatible endpoint. */
export class LlmExtractor implements Extractor {
  readonly name = 'llm';
  private readonly fallback: Extractor;

  constructor(private readonly options: LlmExtractorOptions) {
    this.fallback = options.fallback ?? new RulesExtractor();
  }

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    const entries = recent(toEntries(input.entries), input.maxEntries ?? defaultMaxEntries);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.options.timeoutMs ?? 30_000);
    try {
      const answer = await this.ask(entries, controller.signal);
      return toDrafts(answer, entries, input);
    } catch (error) {
      const reason = controller.signal.aborted
        ? 'timeout'
        : error instanceof Error
          ? error.message
          : String(error);
      const result = await this.fallback.extract(input);
      return { ...result, fallback_reason: `llm extraction failed (${reason}); used ${this.fallback.name}` };
    } finally {
      clearTimeout(timer);
    }
  }

  private async ask(entries: TranscriptEntry[], signal: AbortSignal): Promise<LlmAnswer> {
    const attempts = Math.max(1, this.options.maxAttempts ?? 3);
    const history = formatHistory(entries);
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const text = await complete(this.options, extractionPrompt, history, signal);
      try {
        return parseAnswer(text);
      } catch (error) {
        last = error; // an invalid answer is retried; HTTP errors and aborts are not (thrown by complete)
      }
    }
    throw new Error(
      `no valid answer after ${attempts} attempts: ${last instanceof Error ? last.message : String(last)}`,
    );
  }
}

export { LlmHttpError };

function toDrafts(answer: LlmAnswer, entries: TranscriptEntry[], input: ExtractionInput): ExtractionResult {
  const taskId = input.taskId ?? null;
  const where = (n: number | null | undefined) => {
    const e = n ? entries[n - 1] : undefined;
    return { at: e?.at ?? null, evidence_line: e?.line ?? null };
  };
  const decisions: DecisionDraft[] = answer.decisions.map((d) => ({
    task_id: taskId,
    decision_type: d.decision_type,
    description: d.description,
    rationale: d.rationale,
    alternatives_considered: d.alternatives_considered ?? null,
    ...where(d.entry),
  }));
  const errors: ErrorDraft[] = answer.errors.map((e) => ({
    task_id: taskId,
    error_type: e.error_type,
    error_message: e.error_message,
    context: e.context ?? null,
    resolution: e.resolution,
    resolution_notes: e.resolution_notes ?? null,
    ...where(e.entry),
  }));
  const known = input.existing ?? {};
  return {
    decisions: dedupe(
      decisions,
      (d) => d.description,
      (known.decisions ?? []).map((d) => d.description),
    ),
    errors: dedupe(
      errors,
      (e) => e.error_message,
      (known.errors ?? []).map((e) => e.error_message),
      0.85,
    ),
  };
}
