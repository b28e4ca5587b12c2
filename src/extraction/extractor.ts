import { z } from 'zod';
import { Decision, ErrorRecord } from '../core/schemas/records.js';
import { TranscriptEntry } from '../agents/transcript-types.js';

/**
 * Extraction turns what an agent did (transcript entries, or Amelia-style history strings) into Decision and
 * ErrorRecord drafts. Drafts have no id and no timestamp: the caller assigns those; `at` and `evidence_line` say
 * where in the transcript the draft comes from.
 */
const where = {
  /** Timestamp of the entry the draft was found in, when the transcript has one. */
  at: z.string().nullable(),
  /** Line of that entry in the transcript (for history strings: 1-based index). */
  evidence_line: z.number().int().positive().nullable(),
};

export const DecisionDraft = Decision.omit({ id: true, timestamp: true }).extend(where);
export type DecisionDraft = z.infer<typeof DecisionDraft>;

export const ErrorDraft = ErrorRecord.omit({ id: true, timestamp: true }).extend(where);
export type ErrorDraft = z.infer<typeof ErrorDraft>;

export interface ExtractionResult {
  decisions: DecisionDraft[];
  errors: ErrorDraft[];
  /** The extractor that produced these drafts (`rules`, `llm`). */
  extractor?: string;
  /** Set when an extractor could not do its work and another one answered (e.g. llm -> rules). */
  fallback_reason?: string;
}

export interface ExtractionInput {
  entries: readonly TranscriptEntry[] | readonly string[];
  /** Already recorded items: drafts that say the same thing again are dropped. */
  existing?: {
    decisions?: readonly Pick<Decision, 'description'>[];
    errors?: readonly Pick<ErrorRecord, 'error_message'>[];
  };
  /** Keep to the most recent N entries (default: all of them; 0 also means all). */
  maxEntries?: number;
  /** Task the drafts belong to (default null). */
  taskId?: string | null;
}

export interface Extractor {
  readonly name: string;
  extract(input: ExtractionInput): Promise<ExtractionResult>;
}

/** Entries per request of a model-backed extractor (a transcript is sent in windows of this size). */
export const defaultWindow = 400;

/** History strings become assistant text entries numbered from 1. */
export function toEntries(entries: ExtractionInput['entries']): TranscriptEntry[] {
  return entries.map((entry, index): TranscriptEntry => {
    if (typeof entry !== 'string') return entry;
    return {
      line: index + 1,
      at: null,
      role: 'assistant',
      kind: 'text',
      text: entry,
      truncated: false,
      tool: null,
      sidechain: false,
    };
  });
}

/** The most recent `max` entries (all of them when `max` is 0 or absent). */
export function recent<T>(items: readonly T[], max = 0): T[] {
  return max > 0 && items.length > max ? items.slice(items.length - max) : [...items];
}
