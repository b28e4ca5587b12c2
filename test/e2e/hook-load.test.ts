import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundle = fileURLToPath(new URL('../../dist/bin/', import.meta.url));

/** The files a CommonJS chunk of the hook's bundle loads as it is loaded (its top-level `require`s of its own chunks). */
function loadedWith(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(bundle, file), 'utf8');
  for (const m of text.matchAll(/^(?:const|let|var) \w+ = require\("\.\/([^"]+\.cjs)"\);$/gm))
    loadedWith(m[1]!, seen);
  return seen;
}

describe('what `baton hook` loads (it runs on every turn of an agent: what it loads, each turn pays)', () => {
  it("loads no schema, nor Baton's core, before it knows the event needs the store", () => {
    const chunks = [...loadedWith('hook.cjs')];
    expect(chunks).toContain('hook.cjs');
    const loaded = chunks.map((f) => readFileSync(join(bundle, f), 'utf8')).join('\n');
    // a PostToolUse of Read, a Stop with nothing new: answered without zod or the workflow's schemas
    expect(loaded).not.toMatch(/^\/\/ .*node_modules\/zod\//m);
    expect(loaded).not.toMatch(/^\/\/ dist\/core\/schemas\//m);
    expect(loaded).not.toMatch(/^\/\/ dist\/core\/(fold|workflow-machine|context\/)/m);
    // what it does load of the core: the error type, the task tools' names, the backup refs' names
    expect(loaded).toMatch(/^\/\/ dist\/core\/errors\.js$/m);
  });
});
