import type { TranscriptEntry } from '../../agents/transcript-types.js';
import {
  defaultWindow,
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
import { BatonError } from '../../core/index.js';

export interface LlmExtractorOptions extends LlmClientOptions {
  /** Upper bound for each request, retries included (default 30 s): a pause never waits longer per window. */
  timeoutMs?: number;
  /** Attempts for answers that are not valid JSON of the schema (default 3). */
  maxAttempts?: number;
  /** Entries sent per request (default 400): a longer transcript is sent in several windows, none left out. */
  window?: number;
  /** Used when the endpoint fails, times out or never answers validly (default: the rules extractor). */
  fallback?: Extractor;
}

/**
 * Extraction by a model behind the Anthropic Messages API or an OpenAI-compatible endpoint. Every entry is read:
 * the transcript goes in windows, one request each. When a window fails (HTTP error, timeout, no valid answer after
 * the retries), the whole extraction is redone by the fallback and the result says so (`extractor`,
 * `fallback_reason`), so nothing is half model, half rules without being told.
 */
export class LlmExtractor implements Extractor {
  readonly name = 'llm';
  private readonly fallback: Extractor;

  constructor(private readonly options: LlmExtractorOptions) {
    this.fallback = options.fallback ?? new RulesExtractor();
  }

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    const entries = recent(toEntries(input.entries), input.maxEntries ?? 0);
    const size = Math.max(1, this.options.window ?? defaultWindow);
    const windows: TranscriptEntry[][] = [];
    for (let i = 0; i < entries.length; i += size) windows.push(entries.slice(i, i + size));
    const decisions: DecisionDraft[] = [];
    const errors: ErrorDraft[] = [];
    for (const [n, window] of windows.entries()) {
      try {
        const answer = await this.askWithin(window);
        const drafts = toDrafts(answer, window, input.taskId ?? null);
        decisions.push(...drafts.decisions);
        errors.push(...drafts.errors);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const where = windows.length > 1 ? ` (window ${n + 1} of ${windows.length})` : '';
        const result = await this.fallback.extract(input);
        return {
          ...result,
          extractor: result.extractor ?? this.fallback.name,
          fallback_reason: `llm extraction failed${where}: ${reason}; used ${this.fallback.name}`,
        };
      }
    }
    const known = input.existing ?? {};
    return {
      extractor: 'llm',
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

  private async askWithin(entries: TranscriptEntry[]): Promise<LlmAnswer> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.options.timeoutMs ?? 30_000);
    try {
      return await this.ask(entries, controller.signal);
    } catch (error) {
      if (controller.signal.aborted)
        throw new BatonError(
          'unavailable',
          `timeout after ${this.options.timeoutMs ?? 30_000} ms`,
          {},
          { cause: error },
        );
      throw error;
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
    throw new BatonError(
      'unavailable',
      `no valid answer after ${attempts} attempts: ${last instanceof Error ? last.message : String(last)}`,
    );
  }
}

export { LlmHttpError };

function toDrafts(
  answer: LlmAnswer,
  entries: TranscriptEntry[],
  taskId: string | null,
): { decisions: DecisionDraft[]; errors: ErrorDraft[] } {
  const where = (n: number | null | undefined) => {
    const e = n ? entries[n - 1] : undefined;
    return { at: e?.at ?? null, evidence_line: e?.line ?? null };
  };
  return {
    decisions: answer.decisions.map((d) => ({
      task_id: taskId,
      decision_type: d.decision_type,
      description: d.description,
      rationale: d.rationale,
      alternatives_considered: d.alternatives_considered ?? null,
      ...where(d.entry),
    })),
    errors: answer.errors.map((e) => ({
      task_id: taskId,
      error_type: e.error_type,
      error_message: e.error_message,
      context: e.context ?? null,
      resolution: e.resolution,
      resolution_notes: e.resolution_notes ?? null,
      ...where(e.entry),
    })),
  };
}
