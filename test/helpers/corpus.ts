import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared corpus of real agent files, `../shared/corpus` beside the repository. Tests never read its holdout/. */
export const corpusRoot = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));

export function corpusPath(rel: string): string {
  if (rel === 'holdout' || rel.startsWith('holdout/')) {
    throw new Error('corpus/holdout is kept for acceptance checks; tests never read it');
  }
  if (!existsSync(corpusRoot))
    throw new Error(
      `the shared corpus is missing: expected it at ${corpusRoot} (shared/ beside the repository)`,
    );
  return join(corpusRoot, rel);
}

export const readCorpus = (rel: string): string => readFileSync(corpusPath(rel), 'utf8');

/** Every corpus file (relative paths), never anything under holdout/. */
export function corpusFiles(dir = corpusRoot): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const rel = relative(corpusRoot, full);
    if (rel === 'holdout' || rel.startsWith('holdout/')) continue;
    if (statSync(full).isDirectory()) out.push(...corpusFiles(full));
    else out.push(rel);
  }
  return out.sort();
}
