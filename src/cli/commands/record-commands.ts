import type { Command } from 'commander';
import { CONTEXT_WINDOW_RANGE, decisionTypes, errorResolutions, tddPhases } from '../../core/index.js';
import type { RecordInput } from '../../client/baton-client.js';
import { action, workflowOption, type ActionContext } from '../action.js';
import { argumentOrOption, collect, oneOf, parseNumber } from '../parse.js';
import type { Runtime } from '../runtime.js';
import { takenRef } from '../taken-workflow.js';

type Opts = Record<string, string | string[] | boolean | undefined>;
const str = (v: unknown) => (typeof v === 'string' ? v : null);

async function save(ctx: ActionContext, workflow: string | undefined, input: RecordInput) {
  const r = (await ctx.client.record(await takenRef(ctx.rt, ctx.client, workflow), input)) as {
    workflow_id: string;
    record: { id?: string; review_id?: string };
  };
  ctx.print(r, () =>
    input.kind === 'request' && r.record === null
      ? `this request is already recorded in ${r.workflow_id}; nothing written`
      : `recorded ${input.kind}${r.record?.id ? ` ${r.record.id}` : r.record?.review_id ? ` ${r.record.review_id}` : ''} in ${r.workflow_id}`,
  );
}

export function registerRecordCommands(program: Command, rt: Runtime) {
  const record = program
    .command('record')
    .description('record what happened: decisions, errors, history, tests, usage, reviews');

  record
    .command('decision [description]')
    .description(
      'record a decision: `baton record decision "Use argon2 for hashing" --rationale "memory-hard"`',
    )
    .option('--type <type>', decisionTypes.join(' | '), 'approach')
    .option('--description <text>', 'what was decided (the same as the description argument)')
    .option('--rationale <text>', 'why', '')
    .option('--alternative <text>', 'an option that was considered (repeatable)', collect, [])
    .option('--task <id>', 'the task it belongs to')
    .option(...workflowOption)
    .action(
      action(rt, async (ctx, named: string | undefined, o: Opts) => {
        const alternatives = o.alternative as string[];
        const description = argumentOrOption(named, str(o.description) ?? undefined, {
          option: '--description',
          noun: 'description',
          need: 'a decision needs its description',
          example: ['baton record decision', 'Use argon2 for hashing'],
        });
        await save(ctx, str(o.workflow) ?? undefined, {
          kind: 'decision',
          decision: {
            decision_type: oneOf(o.type as string, decisionTypes, '--type'),
            description,
            rationale: (o.rationale as string) ?? '',
            alternatives_considered: alternatives.length ? alternatives : null,
            task_id: str(o.task),
          },
        });
      }),
    );

  record
    .command('error')
    .description(
      'record an error: `baton record error --type TypeError --message "x is undefined"` (`record resolve` closes it)',
    )
    .requiredOption('--type <type>', 'exception type or error category')
    .requiredOption('--message <text>', 'the error')
    .option('--context <text>', 'what was happening')
    .option('--resolution <resolution>', errorResolutions.join(' | '), 'unresolved')
    .option('--notes <text>', 'how it was resolved or why deferred')
    .option('--task <id>', 'the task it belongs to')
    .option(...workflowOption)
    .action(
      action(rt, async (ctx, o: Opts) => {
        await save(ctx, str(o.workflow) ?? undefined, {
          kind: 'error',
          error: {
            error_type: o.type as string,
            error_message: o.message as string,
            context: str(o.context),
            resolution: oneOf(o.resolution as string, errorResolutions, '--resolution'),
            resolution_notes: str(o.notes),
            task_id: str(o.task),
          },
        });
      }),
    );

  record
    .command('history <text>')
    .description('an agent_history entry')
    .option('--task <id>', 'the task it belongs to')
    .option('--source <name>', 'where it came from')
    .option(...workflowOption)
    .action(
      action(rt, async (ctx, text: string, o: Opts) => {
        await save(ctx, str(o.workflow) ?? undefined, {
          kind: 'history',
          text,
          task_id: str(o.task),
          source: str(o.source),
        });
      }),
    );

  record
    .command('request <text>')
    .description("what the user asked, in their words (the first request becomes the workflow's issue)")
    .option('--source <name>', 'where it came from')
    .option(...workflowOption)
    .action(
      action(rt, async (ctx, text: string, o: Opts) => {
        await save(ctx, str(o.workflow) ?? undefined, {
          kind: 'request',
          text,
          source: str(o.source) ?? 'cli',
        });
      }),
    );

  record
    .command('test')
    .description('a test run and the TDD phase')
    .requiredOption('--phase <phase>', tddPhases.join(' | '))
    .option('--failing <test>', 'a failing test (repeatable)', collect, [])
    .option(
      '--expected <test>',
      'a failure expected in the red phase (repeatable; default in red: every failing test)',
      collect,
      [],
    )
    .option('--command <cmd>', 'the test command')
    .option('--summary <text>', 'truncated test output')
    .option(...workflowOption)
    .action(
      action(rt, async (ctx, o: Opts) => {
        const phase = oneOf(o.phase as string, tddPhases, '--phase');
        const failing = o.failing as string[];
        const expected = o.expected as string[];
        await save(ctx, str(o.workflow) ?? undefined, {
          kind: 'test',
          test: {
            phase,
            failing_tests: failing,
            expected_failures: expected.length ? expected : phase === 'red' ? failing : [],
            last_test_command: str(o.command),
            last_test_output_summary: str(o.summary)?.slice(0, 2000) ?? null,
          },
        });
      }),
    );

  record
    .command('usage')
    .description("the session's usage so far (totals, not increments)")
    .option('--tokens <n>', 'tokens used this session', '0')
    .option('--output-tokens <n>', 'of which output tokens')
    .option(
      '--context-tokens <n>',
      'the current context size (default: --tokens, measured against the window)',
    )
    .option('--context-window <n>', "the model's context window")
    .option('--cost-usd <usd>', 'cost so far')
    .option('--llm-calls <n>', 'LLM calls', '0')
    .option('--tool-calls <n>', 'tool calls', '0')
    .option('--duration <seconds>', 'wall clock seconds', '0')
    .option(...workflowOption)
    .action(
      action(rt, async (ctx, o: Opts) => {
        const tokens = parseNumber(o.tokens as string, '--tokens', { int: true, min: 0 });
        const window = o.contextWindow
          ? parseNumber(o.contextWindow as string, '--context-window', {
              int: true,
              min: CONTEXT_WINDOW_RANGE[0],
              max: CONTEXT_WINDOW_RANGE[1],
            })
          : null;
        // Utilisation and what remains are computed once, by the fold, from the context size and the window.
        await save(ctx, str(o.workflow) ?? undefined, {
          kind: 'usage',
          usage: {
            tokens_used: tokens,
            output_tokens: o.outputTokens
              ? parseNumber(o.outputTokens as string, '--output-tokens', { int: true, min: 0 })
              : null,
            ...(o.contextTokens
              ? {
                  context_tokens: parseNumber(o.contextTokens as string, '--context-tokens', {
                    int: true,
                    min: 0,
                  }),
                }
              : {}),
            context_window: window,
            context_utilization: null,
            tokens_remaining_estimate: null,
            cost_usd: o.costUsd ? parseNumber(o.costUsd as string, '--cost-usd', { min: 0 }) : null,
            llm_calls: parseNumber(o.llmCalls as string, '--llm-calls', { int: true, min: 0 }),
            tool_calls: parseNumber(o.toolCalls as string, '--tool-calls', { int: true, min: 0 }),
            session_duration_seconds: parseNumber(o.duration as string, '--duration', { int: true, min: 0 }),
          },
        });
      }),
    );

  record
    .command('feedback')
    .description('reviewer feedback from a review cycle')
    .requiredOption('--reviewer <persona>', 'who reviewed')
    .option('--severity <level>', 'e.g. low, medium, high', 'medium')
    .option('--comment <text>', 'a comment (repeatable)', collect, [])
    .option('--approved', 'the review approved the change')
    .option(...workflowOption)
    .action(
      action(rt, async (ctx, o: Opts) => {
        await save(ctx, str(o.workflow) ?? undefined, {
          kind: 'feedback',
          feedback: {
            reviewer_persona: o.reviewer as string,
            severity: o.severity as string,
            comments: o.comment as string[],
            approved: o.approved === true,
            addressed: false,
          },
        });
      }),
    );

  record
    .command('resolve <error-id>')
    .description('set the resolution of a recorded error')
    .requiredOption('--resolution <resolution>', errorResolutions.join(' | '))
    .option('--notes <text>', 'how')
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, errorId: string, o: Opts) => {
        const r = await client.resolveError(
          await takenRef(rt, client, str(o.workflow) ?? undefined),
          errorId,
          oneOf(o.resolution as string, errorResolutions, '--resolution'),
          str(o.notes),
        );
        print(r, () => `error ${errorId} is now ${o.resolution}`);
      }),
    );

  record
    .command('addressed <review-id>')
    .description('mark reviewer feedback addressed')
    .option(...workflowOption)
    .action(
      action(rt, async ({ client, print, rt }, reviewId: string, o: Opts) => {
        const ref = await takenRef(rt, client, str(o.workflow) ?? undefined);
        const r = await client.addressFeedback(ref, reviewId);
        print(r, () => `feedback ${reviewId} addressed`);
      }),
    );
}
