import { readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * What of dist/ the npm package ships (`npm run build`, after the bundles): the modules its entries load, nothing else.
 * tsc emits all of src/, but the `baton` command and its hooks run from the bundles in dist/bin/ (rolldown.config.js),
 * so most of dist/ is reached by no entry of the package. From the entries (package.json "exports", both their code and
 * their types, and every file of dist/bin/, which bin/baton.js loads by name), every relative import is followed,
 * static or dynamic, `import type` and `import('…')` types included (TypeScript's own scanner, ts.preProcessFile). The
 * files reached are listed in dist/.npmignore, which npm applies inside the "files" of package.json: the tsc output
 * stays whole in the repository for the tests, benchmarks and `npm run eval`, and `npm pack` leaves the rest out.
 *
 * An import by a computed name (`import(name)`, as of the optional peer dockerode) is not followed: a module of
 * Baton's own is imported by its literal path, so that the package holds it.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const bundles = join(dist, 'bin');

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );

/** The files an export's conditions name (`types`, `default`, nested conditions), as absolute paths. */
const targets = (entry) =>
  typeof entry === 'string' ? [join(root, entry)] : Object.values(entry ?? {}).flatMap(targets);

/** A relative specifier as the file it loads: `./x.js` is x.js, and x.d.ts when read from a declaration file. */
function resolveImport(from, specifier) {
  const path = resolve(dirname(from), specifier);
  if (!from.endsWith('.d.ts')) return path;
  const declaration = path.replace(/\.(c|m)?js$/, '.d.$1ts');
  return existsSync(declaration) ? declaration : path;
}

/** The files of dist/ that the package's entries load, as absolute paths. */
export function shippedFiles() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const queue = [...targets(manifest.exports), ...walk(bundles)];
  const reached = new Set();
  while (queue.length > 0) {
    const file = queue.pop();
    if (reached.has(file) || !file.startsWith(dist + sep) || !/\.(c|m)?js$|\.d\.(c|m)?ts$/.test(file))
      continue;
    if (!existsSync(file))
      throw new Error(`${relative(root, file)}: an entry of the package imports it, and the build made none`);
    reached.add(file);
    const text = readFileSync(file, 'utf8');
    const { importedFiles, referencedFiles } = ts.preProcessFile(text, true, true);
    for (const { fileName } of [...importedFiles, ...referencedFiles])
      if (fileName.startsWith('.')) queue.push(resolveImport(file, fileName));
  }
  return reached;
}

/**
 * dist/.npmignore as an allow-list: every file left out, every folder walked into, then each file an entry loads
 * let in again. A file written into dist/ after the build (a test's bundle) is left out as well.
 */
export function writeNpmIgnore() {
  const shipped = [...shippedFiles()].map((f) => `!/${relative(dist, f).split(sep).join('/')}`).sort();
  const header = [
    '# Written by tools/package-ignore.js (`npm run build`): what of dist/ the package ships, the modules its entries',
    '# load; the rest of the tsc output is for the tests, benchmarks and `npm run eval`.',
    '*',
    '!*/',
  ];
  writeFileSync(join(dist, '.npmignore'), [...header, ...shipped, ''].join('\n'));
  return shipped.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeNpmIgnore();
