import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DecisionType, ErrorResolution } from '../../core/schemas/records.js';

/** A hand-labelled transcript: what a careful reader found, with the lines that show it. */
const evidence = z.array(z.number().int().positive()).min(1);

export const LabelFile = z.object({
  corpus: z.string().min(1),
  labelled_by: z.string(),
  notes: z.string().optional(),
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
  if (!found) throw new Error('corpus not found: pass --corpus <dir> or set BATON_CORPUS');
  return found;
}

export function loadLabels(
  dir = join(repoRoot, 'test', 'fixtures', 'labels'),
): { name: string; label: LabelFile }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      name: f.replace(/\.json$/, ''),
      label: LabelFile.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))),
    }));
}
