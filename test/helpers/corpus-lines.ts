import { parseTranscript } from '../../src/agents/parse-transcript.js';
import type { ParsedTranscript, TranscriptEntry } from '../../src/agents/transcript-types.js';
import { readCorpus } from './corpus.js';

/** The given lines (1-based) of a corpus file. */
export const corpusLines = (file: string, ...numbers: number[]): string[] => {
  const all = readCorpus(file).split('\n');
  return numbers.map((n) => all[n - 1] as string);
};

/**
 * Parse the given lines of a corpus file as a transcript whose line numbers are the source's (blank lines in
 * between); `edit` may change a line as the format's producer would write it. `parse`: the format's parser, when a
 * few lines picked from the middle of a file do not say which format they are.
 */
export function parseCorpusLines(
  file: string,
  numbers: number[],
  edit?: (line: string, n: number) => string,
  parse: (text: string) => ParsedTranscript = parseTranscript,
): TranscriptEntry[] {
  const picked = corpusLines(file, ...numbers);
  const max = Math.max(...numbers);
  const text = Array.from({ length: max }, (_, i) => {
    const at = numbers.indexOf(i + 1);
    if (at < 0) return '';
    const line = picked[at] as string;
    return edit ? edit(line, i + 1) : line;
  }).join('\n');
  return parse(text).entries;
}
