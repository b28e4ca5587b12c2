import { createRequire } from 'node:module';
import type { Tiktoken } from 'js-tiktoken/lite';

let encoder: Tiktoken | null = null;

/**
 * The encoder, built on first use: loading the o200k ranks and building the BPE tables takes seconds on a busy
 * machine, so a process that never counts (a hook, most commands) never pays for it.
 */
function load(): Tiktoken {
  const require = createRequire(import.meta.url);
  const { Tiktoken: Encoder } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown };
  return new Encoder((ranks.default ?? ranks) as ConstructorParameters<typeof Encoder>[0]);
}

/**
 * Counts tokens with a real BPE tokenizer (o200k_base, bundled with js-tiktoken, no download). Claude's own
 * tokenizer is not published; o200k counts are within a few percent of it on English and code, which is what a
 * budget needs.
 */
export function countTokens(text: string): number {
  encoder ??= load();
  return encoder.encode(text, [], []).length;
}
