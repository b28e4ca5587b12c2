import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The shared corpus of real agent files: `../shared/corpus` beside the repository (never its holdout/). */
export function corpusPath(rel: string): string {
  if (rel.startsWith('holdout'))
    throw new Error('corpus/holdout is kept for acceptance checks; tests never read it');
  const root = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
  if (!existsSync(root))
    throw new Error(`the shared corpus is missing: expected it at ${root} (shared/ beside the repository)`);
  return join(root, rel);
}
