import { z } from 'zod';
import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { DecisionType, ErrorResolution } from '../../core/schemas/records.js';

/** The Amelia design's extraction prompt, with entry numbers so answers can point at their evidence. */
export const extractionPrompt = `Analyze the following agent execution history and extract key decisions that were made.

The history consists of numbered entries: what the user asked, what the agent said, the tools it called and
their results (failed results are marked).

A "decision" is a significant choice that:
- Affects how the task is implemented
- Chooses between multiple valid approaches
- Works around a limitation or blocker
- Interprets an ambiguous requirement

For each decision, provide:
1. decision_type: One of [approach, library, architecture, workaround, skip, clarification]
2. description: What was decided (1-2 sentences)
3. rationale: Why this choice was made
4. alternatives_considered: Other options that were evaluated (if mentioned)
5. entry: the number of the entry that shows it

Also extract any errors encountered and their resolutions.

Return only JSON matching this schema:
{
  "decisions": [
    {"decision_type": "approach", "description": "...", "rationale": "...", "alternatives_considered": ["..."], "entry": 3}
  ],
  "errors": [
    {"error_type": "...", "error_message": "...", "context": "...", "resolution": "fixed|workaround|deferred|unresolved", "resolution_notes": "...", "entry": 7}
  ]
}`;

const entry = z.number().int().positive().nullable().optional();

export const LlmAnswer = z.object({
  decisions: z.array(
    z.object({
      decision_type: DecisionType,
      description: z.string().min(1),
      rationale: z.string().default(''),
      alternatives_considered: z.array(z.string()).nullable().optional(),
      entry,
    }),
  ),
  errors: z.array(
    z.object({
      error_type: z.string().min(1),
      error_message: z.string().min(1),
      context: z.string().nullable().optional(),
      resolution: ErrorResolution,
      resolution_notes: z.string().nullable().optional(),
      entry,
    }),
  ),
});
export type LlmAnswer = z.infer<typeof LlmAnswer>;

const answerSchema = () => z.toJSONSchema(LlmAnswer, { io: 'input' });
let answerJsonSchema: ReturnType<typeof answerSchema> | undefined;
/**
 * JSON schema of the answer, for endpoints that accept one (OpenAI-compatible response_format). Built on first use:
 * every import loads this module (the hook that imports a turn too), and building it costs about 6 ms.
 */
export const llmAnswerJsonSchema = () => (answerJsonSchema ??= answerSchema());

function describe(e: TranscriptEntry): string {
  const failed = e.tool && (e.tool.is_error === true || (e.tool.exit_code ?? 0) !== 0);
  const mark =
    e.kind === 'tool_result' ? (failed ? ` FAILED (exit ${e.tool?.exit_code ?? '?'})` : ' ok') : '';
  const text = e.kind === 'tool_result' ? e.text.slice(0, failed ? 800 : 200) : e.text.slice(0, 1500);
  return `[${e.role} ${e.kind}${mark}] ${text}`;
}

/** The user message: "Entry N:" blocks like the Amelia implementation, most recent last. */
export function formatHistory(entries: readonly TranscriptEntry[]): string {
  const body = entries.map((e, i) => `Entry ${i + 1}:\n${describe(e)}`).join('\n\n');
  return `<execution_history>\n${body}\n</execution_history>`;
}

/** Parse a model's answer: tolerates a fenced code block or prose around one JSON object. */
export function parseAnswer(text: string): LlmAnswer {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const raw = fenced ?? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  return LlmAnswer.parse(JSON.parse(raw));
}
