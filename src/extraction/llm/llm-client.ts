import { z } from 'zod';
import { llmAnswerJsonSchema } from './extraction-prompt.js';

/**
 * Minimal chat clients for the two protocols Baton speaks: Anthropic Messages (`POST /v1/messages`) and
 * OpenAI-compatible chat completions (`POST /v1/chat/completions`, as llama.cpp, Ollama, vLLM serve).
 */
export const llmKinds = ['anthropic', 'openai'] as const;
export type LlmKind = (typeof llmKinds)[number];

export interface LlmClientOptions {
  kind: LlmKind;
  /** e.g. https://api.anthropic.com or http://127.0.0.1:8080 (a trailing /v1 is accepted). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  maxTokens?: number;
  fetch?: typeof fetch;
}

const AnthropicResponse = z.object({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});
const OpenAiResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

export class LlmHttpError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`LLM endpoint answered ${status}: ${body.slice(0, 200)}`);
    this.name = 'LlmHttpError';
  }
}

/** The endpoint's base: a URL given with its API path (…/v1/messages, …/v1/chat/completions, …/v1) is cut back. */
function url(base: string, path: string): string {
  const trimmed = base
    .replace(/\/+$/, '')
    .replace(/\/(?:messages|chat\/completions)$/, '')
    .replace(/\/v1$/, '');
  return `${trimmed}${path}`;
}

/**
 * The protocol a URL speaks, when the URL says: an Anthropic host or a /messages path is Anthropic's Messages API;
 * an OpenAI host or a /chat/completions path is the OpenAI-compatible one. null when it does not say (a bare
 * http://127.0.0.1:8080 could be either): then the caller must be told to choose.
 */
export function inferLlmKind(endpoint: string): LlmKind | null {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  const path = u.pathname.replace(/\/+$/, '');
  const anthropic = /(^|\.)anthropic\.com$/.test(host) || /\/messages$/.test(path);
  const openai = /(^|\.)openai\.com$/.test(host) || /\/chat\/completions$/.test(path);
  if (anthropic === openai) return null;
  return anthropic ? 'anthropic' : 'openai';
}

/** Send one system + user exchange; returns the answer text. Throws on HTTP errors and malformed responses. */
export async function complete(
  options: LlmClientOptions,
  system: string,
  user: string,
  signal: AbortSignal,
): Promise<string> {
  const doFetch = options.fetch ?? fetch;
  const maxTokens = options.maxTokens ?? 4096;
  if (options.kind === 'anthropic') {
    const response = await doFetch(url(options.baseUrl, '/v1/messages'), {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      },
      body: JSON.stringify({
        model: options.model,
        max_tokens: maxTokens,
        system,
        messages: [{ role: 'user', content: user }],
      }),
    });
    if (!response.ok) throw new LlmHttpError(response.status, await response.text());
    const body = AnthropicResponse.parse(await response.json());
    return body.content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('');
  }
  const response = await doFetch(url(options.baseUrl, '/v1/chat/completions'), {
    method: 'POST',
    signal,
    headers: {
      'content-type': 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: options.model,
      max_tokens: maxTokens,
      temperature: 0,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'extraction', schema: llmAnswerJsonSchema() },
      },
    }),
  });
  if (!response.ok) throw new LlmHttpError(response.status, await response.text());
  const body = OpenAiResponse.parse(await response.json());
  return body.choices[0]?.message.content ?? '';
}
