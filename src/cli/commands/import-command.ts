import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { importTranscriptFile } from '../../integrations/transcripts/import-file.js';
import { keepReadMark } from '../../integrations/hooks/unread-transcripts.js';
import { refuseForeignTranscript } from './import-origin.js';
import { readFirstLines } from '../../integrations/transcripts/read-new-bytes.js';
import { action, workflowOption } from '../action.js';
import { settingReader } from '../../config/settings.js';
import type { Runtime } from '../runtime.js';
import { thousands } from '../output.js';
import { outputSaid } from '../usage-line.js';
import { counted } from '../../core/index.js';
import { commandWord } from '../command-word.js';
import { takenRef } from '../taken-workflow.js';

interface ImportOptions {
  workflow?: string;
  task?: string;
  extractor?: string;
  llmKind?: string;
  llmUrl?: string;
  llmModel?: string;
  llmTimeout?: string;
}

type ImportResult = Awaited<ReturnType<typeof importTranscriptFile>>;

/** The text report of an import: what was read, what it gave, which extractor, the session's usage. */
function importSummary(file: string, r: ImportResult): string {
  const c = r.records;
  const u = r.usage;
  const extractor = r.extractor.fallback_reason
    ? `${r.extractor.used} (fallback: ${r.extractor.fallback_reason})`
    : r.extractor.used;
  // read again from where its last import stopped, with nothing after it: said, not counted as an empty import
  if (r.read.bytes === 0 && r.read.from_byte > 0 && r.new_entries === 0)
    return `already imported: ${file} (${r.format}) holds nothing new since its last import into ${r.workflow_id} (0 new entries, lines through ${r.lines})`;
  return [
    `imported ${file} (${r.format}) into ${r.workflow_id}: ${counted(r.new_entries, 'new entry', 'new entries')}, lines through ${r.lines}, ${thousands(r.read.bytes)} bytes read`,
    `  requests ${c.requests}, task-list calls ${c.task_calls}, side effects ${c.side_effects}, test runs ${c.test_runs}, summaries ${c.summaries}, history ${c.history}`,
    `  decisions ${c.decisions}, errors ${c.errors}${c.resolved ? `, earlier errors resolved ${c.resolved}` : ''}; extracted by ${extractor}`,
    ...r.compactions.map(
      (x) =>
        `  compaction at line ${x.line}${x.at ? ` (${x.at})` : ''}: ${x.trigger ?? 'auto'}${x.pre_tokens ? `, ${thousands(x.pre_tokens)} tokens before` : ''}`,
    ),
    u
      ? `  usage: ${thousands(u.tokens_used)} tokens (${outputSaid(u.output_tokens ?? 0, u.output_tokens_estimated)}), context now ${thousands(u.context_tokens)}, peak ${thousands(u.peak_context_tokens)}${u.context_window ? ` of ${thousands(u.context_window)}` : ''}${u.cost_usd !== null ? `, $${u.cost_usd.toFixed(2)}` : ''}`
      : '  usage: none reported',
    r.skipped.length ? `  ${counted(r.skipped.length, 'malformed line')} skipped (listed above)` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export function registerImportCommand(program: Command, rt: Runtime) {
  const imp = program
    .command('import')
    .usage('[auto | claude-code | codex] [options] <file>')
    .description(
      "import an agent's transcript into a workflow: `baton import <file>` reads which agent wrote it",
    );
  // [name, its line in `baton import --help`, what its own help says it imports]
  const sources = [
    [
      'auto',
      "either agent's transcript (the default)",
      'a transcript of either agent, which one read from the file (the default)',
    ],
    [
      'claude-code',
      'a Claude Code session transcript',
      'a Claude Code session transcript (~/.claude/projects/<project>/<session>.jsonl)',
    ],
    [
      'codex',
      'a Codex CLI rollout',
      'a Codex CLI rollout (~/.codex/sessions/.../rollout-*.jsonl) or `codex exec --json` output',
    ],
  ] as const;
  // `baton import` alone would be `baton import auto` without its file: said with this command's usage, not auto's;
  // `baton import claude <file>` names an agent Baton does not know, not a second file (files, as a glob gives them,
  // are said by the `auto` form: it takes one)
  imp.hook('preSubcommand', (_imp, sub) => {
    if (sub.name() !== 'auto' || imp.args[0] === 'auto') return;
    const first = commandWord(sub, imp.args);
    if (!first)
      imp.error(
        'error: missing transcript file: `baton import <file>` reads which agent wrote it; `baton import claude-code <file>` or `baton import codex <file>` names the agent',
        { code: 'baton.missingFile', exitCode: 2 },
      );
    else if (commandWord(sub, imp.args.slice(first.at + 1)) && /^[a-z][\w-]*$/i.test(first.word))
      imp.error(
        `error: unknown agent '${first.word}': \`baton import claude-code <file>\` or \`baton import codex <file>\` names the agent, and \`baton import <file>\` reads which agent wrote it`,
        { code: 'baton.unknownAgent', exitCode: 2 },
      );
  });
  imp.addHelpText(
    'after',
    '\nOptions of each: -w/--workflow <id>, --task <id>, --extractor <name>, --llm-kind, --llm-url, --llm-model and\n--llm-timeout (`baton import codex --help` says what each does).',
  );
  for (const [name, line, what] of sources) {
    imp
      .command(`${name} <file>`, name === 'auto' ? { isDefault: true } : {})
      .summary(`import ${line}`)
      .description(
        `import ${what}: requests, tasks, commits, files, tests, summaries, decisions, errors, history and usage; a later import reads only what was appended`,
      )
      .option(...workflowOption)
      .option('--task <id>', 'the task the records belong to')
      .option('--extractor <name>', 'rules | llm (env BATON_EXTRACTOR, config extractor, default rules)')
      .option(
        '--llm-kind <kind>',
        'anthropic | openai (env BATON_LLM_KIND, config llm_kind; default: read from the URL)',
      )
      .option('--llm-url <url>', 'the LLM endpoint base URL (env BATON_LLM_URL, config llm_url)')
      .option(
        '--llm-model <model>',
        'the model (env BATON_LLM_MODEL, config llm_model); the key comes from BATON_LLM_API_KEY',
      )
      .option(
        '--llm-timeout <ms>',
        'give up on the LLM and use the rules after this long (env BATON_LLM_TIMEOUT, config llm_timeout, default 30000)',
      )
      .action(
        action(rt, async ({ client, g, print, rt }, file: string, o: ImportOptions) => {
          // the parsers and the extraction rules (whose expressions are compiled as they load) load here, not with
          // `baton --help`
          const [{ extractorOf }, { importTranscriptFile }, { sourceOf }] = await Promise.all([
            import('../extractor-settings.js'),
            import('../../integrations/transcripts/import-file.js'),
            import('../../integrations/transcripts/transcript-import.js'),
          ]);
          const extractor = extractorOf(settingReader(o, rt.env, rt.settings(g)), rt.env);
          const path = resolve(rt.cwd, file);
          const source = name === 'auto' ? sourceOf(await readFirstLines(path, 1 << 18), path) : name;
          const ref = await takenRef(rt, client, o.workflow);
          if (!o.workflow) await refuseForeignTranscript(client, ref, path, rt.cwd);
          const r = await importTranscriptFile(client, ref, path, source, {
            extractor,
            taskId: o.task ?? null,
            create: true,
          });
          if (r.created)
            rt.io.err(
              `no workflow was open here: created ${r.workflow_id} for this transcript (${r.records.requests ? 'its first request is the issue' : 'it holds no request of the user: named after the file'})`,
            );
          // what it read held nothing to record: kept, so `baton status` does not say it unread again
          const unkept =
            r.new_entries === 0
              ? keepReadMark(
                  await client.status({ workflowId: r.workflow_id }),
                  rt.settings(g).home,
                  path,
                  r.read.to_byte,
                )
              : null;
          if (unkept) rt.io.err(`baton: warning: ${unkept}`);
          for (const s of r.skipped) rt.io.err(`${file}:${s.line}: skipped: ${s.reason}`);
          for (const w of r.warnings) rt.io.err(`${file}: ${w}`);
          print(r, () => importSummary(file, r));
        }),
      );
  }
}
