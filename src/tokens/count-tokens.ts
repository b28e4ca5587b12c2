import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | null = null;

/**
 * Counts tokens with a real BPE tokenizer (o200k_base, bundled with js-tiktoken, no download). Claude's own
 * tokenizer is not published; o200k counts are within a few percent of it on English and code, which is what a
 * budget needs.
 */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(o200k);
  return encoder.encode(text, [], []).length;
}
