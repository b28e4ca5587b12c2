import { createRequire } from 'node:module';

/** The vocabulary: `vendor/` at the package root, two levels above `src/tokens/`, `dist/tokens/` and the CLI bundle in `dist/bin/`. */
const VOCABULARY = '../../vendor/o200k_base.cjs';

interface Vocabulary {
  pat_str: string;
  /** Lines of `<first token> <rank of the first> <token> <token>...`, tokens in base64, ranks consecutive. */
  bpe_ranks: string;
}

/**
 * Counts o200k_base tokens exactly as tiktoken does (the pre-tokenizing pattern, then byte-pair merges, lowest rank
 * first, leftmost on ties), special tokens counted as ordinary text. Tokens are keyed by their bytes read as latin1,
 * so a piece's sub-ranges are plain substrings.
 */
class O200kCounter {
  private readonly ranks = new Map<string, number>();
  private readonly pattern: RegExp;

  constructor(vocabulary: Vocabulary) {
    for (const line of vocabulary.bpe_ranks.split('\n')) {
      const fields = line.split(' ');
      const first = Number.parseInt(fields[1] ?? '', 10);
      for (let i = 2; i < fields.length; i++) {
        this.ranks.set(Buffer.from(fields[i]!, 'base64').toString('latin1'), first + i - 2);
      }
    }
    this.pattern = new RegExp(vocabulary.pat_str, 'gu');
  }

  count(text: string): number {
    let tokens = 0;
    for (const match of text.matchAll(this.pattern)) {
      const piece = Buffer.from(match[0], 'utf8').toString('latin1');
      tokens += this.ranks.has(piece) ? 1 : this.merged(piece);
    }
    return tokens;
  }

  /** How many tokens byte-pair merging leaves of a piece that is not itself a token. */
  private merged(piece: string): number {
    const bounds = Array.from({ length: piece.length + 1 }, (_, i) => i);
    while (bounds.length > 2) {
      let best = Infinity;
      let at = -1;
      for (let i = 0; i + 2 < bounds.length; i++) {
        const rank = this.ranks.get(piece.slice(bounds[i], bounds[i + 2]));
        if (rank !== undefined && rank < best) {
          best = rank;
          at = i;
        }
      }
      if (at < 0) break;
      bounds.splice(at + 1, 1);
    }
    return bounds.length - 1;
  }
}

let counter: O200kCounter | null = null;

/**
 * Counts tokens with a real BPE tokenizer: o200k_base, whose vocabulary ships in `vendor/` (no download). Claude's own
 * tokenizer is not published; o200k counts are within a few percent of it on English and code, which is what a budget
 * needs. The vocabulary (2.3 MB) is read on the first call only, so commands that compile no context never load it.
 */
export function countTokens(text: string): number {
  counter ??= new O200kCounter(createRequire(import.meta.url)(VOCABULARY) as Vocabulary);
  return counter.count(text);
}
