export * from './extractor.js';
export { similarity, dedupe } from './similarity.js';
export { RulesExtractor, extractWithRules } from './rules/rules-extractor.js';
export { LlmExtractor, type LlmExtractorOptions } from './llm/llm-extractor.js';
export {
  complete,
  inferLlmKind,
  LlmHttpError,
  llmKinds,
  type LlmKind,
  type LlmClientOptions,
} from './llm/llm-client.js';
export {
  extractionPrompt,
  LlmAnswer,
  llmAnswerJsonSchema,
  formatHistory,
  parseAnswer,
} from './llm/extraction-prompt.js';
export * from './session/index.js';
export { resolveKnown, type LaterResolution, type OpenError } from './rules/errors/resolve-known.js';
