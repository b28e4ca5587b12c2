import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared corpus lives next to the repository (`<repo>/../shared/corpus`); /work/shared/corpus is a fallback. */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const candidates = [join(repoRoot, '..', 'shared', 'corpus'), '/work/shared/corpus'];
export const corpusRoot = candidates.find((dir) => existsSync(dir)) ?? (candidates[0] as string);

export const corpusPath = (rel: string): string => join(corpusRoot, rel);
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
