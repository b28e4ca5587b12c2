import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real agent files the tests read. Every file the tests use is copied into `test/fixtures/corpus/` (with its source
 * line in SOURCES.md there), so the suite runs from a clean clone; `../shared/corpus` beside the repository is read
 * only for a file that has no copy. Tests never read the corpus's holdout/.
 */
export const fixtureCorpusRoot = fileURLToPath(new URL('../fixtures/corpus/', import.meta.url));
export const sharedCorpusRoot = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
/** Where relative corpus paths resolve first (the fixture copies). */
export const corpusRoot = fixtureCorpusRoot;

const isHoldout = (rel: string) => rel === 'holdout' || rel.startsWith('holdout/');

export function corpusPath(rel: string): string {
  if (isHoldout(rel)) throw new Error('corpus/holdout is kept for acceptance checks; tests never read it');
  const copy = join(fixtureCorpusRoot, rel);
  if (existsSync(copy)) return copy;
  const shared = join(sharedCorpusRoot, rel);
  if (existsSync(shared)) return shared;
  throw new Error(`corpus file ${rel} is neither in ${fixtureCorpusRoot} nor in ${sharedCorpusRoot}`);
}

export const readCorpus = (rel: string): string => readFileSync(corpusPath(rel), 'utf8');

function filesUnder(root: string, dir = root): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const rel = relative(root, full);
    if (isHoldout(rel)) continue;
    if (statSync(full).isDirectory()) out.push(...filesUnder(root, full));
    else if (rel !== 'SOURCES.md') out.push(rel);
  }
  return out;
}

/** Every corpus file (relative paths) of the fixture copies and the shared corpus, never anything under holdout/. */
export function corpusFiles(): string[] {
  const all = new Set([...filesUnder(fixtureCorpusRoot), ...filesUnder(sharedCorpusRoot)]);
  return [...all].filter((f) => !/^(README|FORMATS|SOURCES)\.md$/.test(f)).sort();
}
