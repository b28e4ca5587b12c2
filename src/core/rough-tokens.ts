/** About four characters a token: the estimate wherever the tokenizer is not loaded (a hook, a history budget). */
export const CHARS_PER_TOKEN = 4;

export const roughTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);
