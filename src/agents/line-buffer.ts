/**
 * Splits a stream of text chunks into numbered lines, so a live child process's stdout can be fed piece by piece.
 * Handles \n and \r\n, keeps the unfinished tail until the next chunk or `end()`.
 */
export interface NumberedLine {
  line: number;
  text: string;
}

export class LineBuffer {
  private tail = '';

  /** `count`: lines before the first chunk (a transcript read on from line `count + 1`). */
  constructor(private count = 0) {}

  /** Feed a chunk; returns the lines it completed. */
  push(chunk: string): NumberedLine[] {
    const data = this.tail + chunk;
    const parts = data.split('\n');
    this.tail = parts.pop() ?? '';
    return parts.map((text) => this.number(text));
  }

  /** The input is over: returns the last line if it had no newline. */
  end(): NumberedLine[] {
    if (this.tail === '') return [];
    const text = this.tail;
    this.tail = '';
    return [this.number(text)];
  }

  get linesSeen(): number {
    return this.count;
  }

  private number(text: string): NumberedLine {
    this.count += 1;
    return { line: this.count, text: text.endsWith('\r') ? text.slice(0, -1) : text };
  }
}

export type JsonLine = { ok: true; value: unknown } | { ok: false; reason: string };

/** Parse one JSONL line; never throws. Blank lines are reported as not ok with reason "blank line". */
export function parseJsonLine(text: string): JsonLine {
  if (text.trim() === '') return { ok: false, reason: 'blank line' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `invalid JSON: ${message}` };
  }
}
