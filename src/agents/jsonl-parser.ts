import { LineBuffer, parseJsonLine, type NumberedLine } from './line-buffer.js';
import type { TranscriptBuilder } from './transcript-builder.js';
import type { ParsedTranscript } from './transcript-types.js';

/**
 * What every JSONL transcript parser shares: `push` takes text in chunks of any size, `end()` flushes the last line
 * and returns the result, `snapshot()` gives what is parsed so far. A blank line is ignored and a line that is not
 * JSON is skipped with its line number; subclasses decide what a JSON line means.
 */
export abstract class JsonlParser {
  private readonly buffer = new LineBuffer();

  constructor(readonly builder: TranscriptBuilder) {}

  push(chunk: string): void {
    for (const line of this.buffer.push(chunk)) this.accept(line);
  }

  end(): ParsedTranscript {
    for (const line of this.buffer.end()) this.accept(line);
    return this.snapshot();
  }

  /** What has been parsed so far (usable while a session is still being written). */
  snapshot(): ParsedTranscript {
    this.builder.lines = this.buffer.linesSeen;
    return this.builder.build();
  }

  private accept({ line, text }: NumberedLine): void {
    if (text.trim() === '') return;
    const json = parseJsonLine(text);
    if (!json.ok) return this.builder.skip(line, json.reason);
    this.line(line, json.value);
  }

  /** One JSON line: validate it and fold it into the builder. */
  protected abstract line(line: number, value: unknown): void;
}
