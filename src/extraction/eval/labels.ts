import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DecisionType, ErrorResolution } from '../../core/schemas/records.js';
import { invalidInput } from '../../core/index.js';

/** A hand-labelled transcript: what a careful reader found, with the lines that show it. */
const evidence = z.array(z.number().int().positive()).min(1);

/**
 * `tuning`: the rules were developed looking at these files. `untuned`: chosen before any rule changed and never
 * looked at while tuning; the targets are judged on these.
 */
export const labelSplits = ['tuning', 'untuned'] as const;
export type LabelSplit = (typeof labelSplits)[number];

/**
 * One labelled transcript. `split` and `labelled_by` are this repository's bookkeeping: a label file from elsewhere
 * (a held-out set scored with `--labels`) may leave them out, and is then untuned, by nobody named.
 */
export const LabelFile = z.object({
  corpus: z.string().min(1),
  split: z.enum(labelSplits).default('untuned'),
  labelled_by: z.string().default(''),
  notes: z.string().optional(),
  /** The user's requests in order (slash commands and local-command noise left out). */
  goal: z.array(z.object({ evidence, text: z.string().min(1) })),
  /** Commits the session made, read from `git commit` output. */
  commits: z.array(z.object({ hash: z.string().regex(/^[0-9a-f]{7,40}$/), subject: z.string().min(1) })),
  /**
   * The agent's task list at the end, with its statuses, plus the items an earlier list completed (work done under a
   * plan that was replaced, or a list emptied when done). An item dropped from the list before it was done was
   * superseded: it is not work left to do, and not in here. A task deleted with TaskUpdate is gone.
   */
  final_tasks: z.array(
    z.object({ content: z.string().min(1), status: z.enum(['pending', 'in_progress', 'completed']) }),
  ),
  /** The last test run whose output showed a result; null when no test ran. */
  last_test: z
    .object({
      command: z.string().min(1),
      outcome: z.enum(['pass', 'fail']),
      passed: z.number().int().nonnegative().nullable(),
      failed: z.number().int().nonnegative().nullable(),
      failing: z.array(z.string()),
    })
    .nullable(),
  errors: z.array(
    z.object({
      evidence,
      error_type: z.string(),
      error_message: z.string(),
      resolution: ErrorResolution,
      resolution_notes: z.string().optional(),
    }),
  ),
  decisions: z.array(
    z.object({
      evidence,
      decision_type: DecisionType,
      description: z.string(),
      rationale: z.string(),
      alternatives_considered: z.array(z.string()).optional(),
    }),
  ),
});
export type LabelFile = z.infer<typeof LabelFile>;

/** src/extraction/eval and dist/extraction/eval are both three levels below the repository root. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Corpus directory: explicit > BATON_CORPUS > the repository's copies in test/fixtures/corpus. */
export function findCorpus(explicit?: string): string {
  const candidates = [explicit, process.env.BATON_CORPUS, join(repoRoot, 'test', 'fixtures', 'corpus')];
  const found = candidates.find(
    (dir): dir is string => typeof dir === 'string' && dir !== '' && existsSync(dir),
  );
  if (!found) throw invalidInput('corpus not found: pass --corpus <dir> or set BATON_CORPUS');
  return found;
}

export function loadLabels(
  dir = join(repoRoot, 'test', 'fixtures', 'labels'),
): { name: string; label: LabelFile }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const parsed = LabelFile.safeParse(JSON.parse(readFileSync(join(dir, f), 'utf8')));
      if (!parsed.success) throw invalidInput(`label file ${f}: ${parsed.error.message}`);
      return { name: f.replace(/\.json$/, ''), label: parsed.data };
    });
}
