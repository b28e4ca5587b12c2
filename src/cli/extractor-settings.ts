import type { SettingReader } from '../config/setting-reader.js';
import { invalidInput } from '../core/index.js';
import {
  inferLlmKind,
  LlmExtractor,
  llmKinds,
  RulesExtractor,
  type Extractor,
  type LlmExtractorOptions,
} from '../extraction/index.js';

/** Which extractor `baton import` uses, and for `llm` the endpoint it asks. */
export type ExtractorSettings =
  | { name: 'rules' }
  | ({ name: 'llm' } & Pick<LlmExtractorOptions, 'kind' | 'baseUrl' | 'model' | 'apiKey' | 'timeoutMs'>);

/**
 * `rules` (offline, the default) or `llm` against an Anthropic or OpenAI-compatible endpoint, falling back to rules.
 * Each setting is option > variable > the worktree's `baton.config.json` > `$BATON_HOME/config.json` > default; the
 * API key only from a variable (BATON_LLM_API_KEY, else ANTHROPIC_API_KEY or OPENAI_API_KEY by kind).
 */
export function extractorSettings(r: SettingReader, env: NodeJS.ProcessEnv): ExtractorSettings {
  const name = r.oneOf('extractor', ['rules', 'llm'] as const, 'rules');
  if (name === 'rules') return { name };
  const baseUrl = r.text('llmUrl');
  const model = r.text('llmModel');
  if (!baseUrl || !model) {
    throw invalidInput(
      `--extractor llm (${r.get('extractor').from}) needs --llm-url (variable BATON_LLM_URL, config llm_url) and --llm-model (variable BATON_LLM_MODEL, config llm_model)`,
    );
  }
  const kind =
    r.get('llmKind').text === undefined ? inferLlmKind(baseUrl) : r.oneOf('llmKind', llmKinds, 'anthropic');
  if (kind === null) {
    throw invalidInput(
      `cannot tell which protocol ${baseUrl} speaks: pass --llm-kind anthropic|openai (variable BATON_LLM_KIND, config llm_kind), or give the API path (…/v1/messages, …/v1/chat/completions)`,
    );
  }
  const apiKey =
    r.text('llmApiKey') || (kind === 'anthropic' ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY) || undefined;
  const timeoutMs = r.integer('llmTimeout', 30_000, 100, 3_600_000, 'milliseconds');
  return { name, kind, baseUrl, model, apiKey, timeoutMs };
}

export function extractorOf(r: SettingReader, env: NodeJS.ProcessEnv): Extractor {
  const s = extractorSettings(r, env);
  if (s.name === 'rules') return new RulesExtractor();
  const { name: _name, ...options } = s;
  return new LlmExtractor(options);
}
