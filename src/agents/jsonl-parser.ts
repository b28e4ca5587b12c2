import { LineBuffer, parseJsonLine, type NumberedLine } from './line-buffer.js';
import { ParserState } from './parser-state.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ParseOptions, ParsedTranscript, TranscriptFormat } from './transcript-types.js';

/**
 * What every JSONL transcript parser shares: `push` takes text in chunks of any size, `end()` flushes the last line
 * and returns the result, `snapshot()` gives what is parsed so far. A blank line is ignored and a line that is not
 * JSON is skipped with its line number; subclasses decide what a JSON line means. With `startLine` and the `state`
 * of an earlier parse, the text is read as the continuation of a transcript (its usage, open tool calls...).
 */
export abstract class JsonlParser {
  private readonly buffer: LineBuffer;
  readonly builder: TranscriptBuilder;
  /** The format parser's own part of the earlier parse's state (undefined for a fresh parse). */
  protected readonly carried: unknown;

  constructor(format: TranscriptFormat, options: ParseOptions = {}) {
    const state = ParserState.safeParse(options.state);
    this.builder = new TranscriptBuilder(
      format,
      options.maxTextLength,
      state.success ? state.data.builder : undefined,
      options.countedElsewhere,
    );
    this.carried = state.success ? state.data.format : undefined;
    this.buffer = new LineBuffer(options.startLine ?? 0);
    this.builder.lines = options.startLine ?? 0;
  }

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
    const parsed = this.builder.build();
    const state: ParserState = { builder: parsed.state, format: this.formatState() };
    return { ...parsed, state };
  }

  /** The format's own carry-over (dedup memories, running sessions...); JSON, bounded. */
  protected formatState(): unknown {
    return undefined;
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
