import type { Command } from 'commander';
import { resolve } from 'node:path';
import { invalidInput } from '../../core/index.js';
import {
  LlmExtractor,
  llmKinds,
  RulesExtractor,
  type Extractor,
  type LlmKind,
} from '../../extraction/index.js';
import { importTranscriptFile } from '../../integrations/transcripts/import-file.js';
import { action, workflowOption } from '../action.js';
import { oneOf, parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';

interface ImportOptions {
  workflow?: string;
  task?: string;
  extractor: string;
  llmKind?: string;
  llmUrl?: string;
  llmModel?: string;
  llmTimeout?: string;
}

/** `rules` (offline, the default) or `llm` against an Anthropic or OpenAI-compatible endpoint, falling back to rules. */
function extractorOf(o: ImportOptions, env: NodeJS.ProcessEnv): Extractor {
  const name = oneOf(o.extractor, ['rules', 'llm'] as const, '--extractor');
  if (name === 'rules') return new RulesExtractor();
  const kind = oneOf(
    o.llmKind ?? env.BATON_LLM_KIND ?? 'openai',
    llmKinds,
    '--llm-kind / BATON_LLM_KIND',
  ) as LlmKind;
  const baseUrl = o.llmUrl ?? env.BATON_LLM_URL;
  const model = o.llmModel ?? env.BATON_LLM_MODEL;
  if (!baseUrl || !model) {
    throw invalidInput('--extractor llm needs --llm-url (BATON_LLM_URL) and --llm-model (BATON_LLM_MODEL)');
  }
  const apiKey = env.BATON_LLM_API_KEY ?? (kind === 'anthropic' ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY);
  const timeoutMs = o.llmTimeout
    ? parseNumber(o.llmTimeout, '--llm-timeout', { int: true, min: 100 })
    : 30_000;
  return new LlmExtractor({ kind, baseUrl, model, apiKey, timeoutMs });
}

export function registerImportCommand(program: Command, rt: Runtime) {
  const imp = program.command('import').description("import an agent's transcript into a workflow");
  for (const [format, what] of [
    ['claude-code', 'a Claude Code session transcript (~/.claude/projects/<project>/<session>.jsonl)'],
    ['codex', 'a Codex CLI rollout (~/.codex/sessions/.../rollout-*.jsonl) or `codex exec --json` output'],
  ] as const) {
    imp
      .command(`${format} <file>`)
      .description(
        `import ${what}: history, usage, decisions and errors; a second import adds only what is new`,
      )
      .option(...workflowOption)
      .option('--task <id>', 'the task the records belong to')
      .option('--extractor <name>', 'rules | llm', 'rules')
      .option('--llm-kind <kind>', 'anthropic | openai (env BATON_LLM_KIND)')
      .option('--llm-url <url>', 'the LLM endpoint base URL (env BATON_LLM_URL)')
      .option('--llm-model <model>', 'the model (env BATON_LLM_MODEL); the key comes from BATON_LLM_API_KEY')
      .option('--llm-timeout <ms>', 'give up on the LLM and use the rules after this long (default 30000)')
      .action(
        action(rt, async ({ client, print, rt }, file: string, o: ImportOptions) => {
          const r = await importTranscriptFile(client, rt.ref(o.workflow), resolve(rt.cwd, file), format, {
            extractor: extractorOf(o, rt.env),
            taskId: o.task ?? null,
          });
          for (const s of r.skipped) rt.io.err(`${file}:${s.line}: skipped: ${s.reason}`);
          print(r, () =>
            [
              `imported ${file} into ${r.workflow_id}: ${r.new_entries} new of ${r.entries} entries (${r.lines} lines)`,
              `  history ${r.records.history}, decisions ${r.records.decisions}, errors ${r.records.errors}, compactions ${r.compactions}`,
              r.usage
                ? `  usage: ${r.usage.tokens_used} tokens${r.usage.context_utilization !== null ? `, context ${Math.round(r.usage.context_utilization * 100)}% of ${r.usage.context_window}` : ''}${r.usage.cost_usd !== null ? `, $${r.usage.cost_usd.toFixed(2)}` : ''}`
                : '  usage: none reported',
              r.skipped.length ? `  ${r.skipped.length} malformed line(s) skipped (listed above)` : '',
            ]
              .filter(Boolean)
              .join('\n'),
          );
        }),
      );
  }
}
