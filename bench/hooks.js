import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRepo } from './git-repo.js';
import { fmt } from './stats.js';

const bin = fileURLToPath(new URL('../bin/baton.js', import.meta.url));
const corpus = (rel) => fileURLToPath(new URL(`../test/fixtures/corpus/${rel}`, import.meta.url));

/** Runs one process with `input` on stdin; resolves to its wall-clock milliseconds (spawn to exit). */
function timed(args, input, env, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - t0, code, out, err }));
    child.stdin.end(input);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * A transcript of about `mb` megabytes made of real Claude Code lines (the spotter session, repeated), and the
 * lines appended between two Stops (100 real lines of another session).
 */
function bigTranscript(path, mb) {
  const session = readFileSync(
    corpus('claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl'),
    'utf8',
  );
  const chunk = session.endsWith('\n') ? session : `${session}\n`;
  writeFileSync(path, '');
  while (statSync(path).size < mb * 1024 * 1024) appendFileSync(path, chunk);
  const more = readFileSync(corpus('claude-code/codemie-code-2/session-196820da.jsonl'), 'utf8').split('\n');
  return more.filter(Boolean).slice(0, 100).join('\n') + '\n';
}

/**
 * `npm run bench -- hooks`: what a hook costs the agent on every turn, beside a bare `node -e 0` in the same run
 * (each measurement interleaved with the others, medians): a Stop with nothing new, a Stop importing 100 new lines
 * of a 50 MB transcript, and a SessionStart that injects the context.
 */
export async function benchHooks({ quick }) {
  const runs = quick ? 7 : 11;
  const mb = quick ? 10 : 50;
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-hooks-'));
  try {
    const repo = makeRepo(dir);
    const env = { ...process.env, BATON_HOME: join(dir, 'home'), HOME: join(dir, 'user') };
    delete env.BATON_URL;
    delete env.BATON_DATABASE_URL;
    const transcript = join(dir, 'session.jsonl');
    const newLines = bigTranscript(transcript, mb);
    const hook = (event, extra) =>
      timed(
        [bin, 'hook', event],
        JSON.stringify({
          session_id: 'bench-session',
          cwd: repo,
          hook_event_name: event,
          transcript_path: transcript,
          ...extra,
        }),
        env,
        repo,
      );
    // The workflow, its request and a first full import (what the measured Stops add to).
    await hook('SessionStart', { source: 'startup' });
    await hook('UserPromptSubmit', { prompt: 'Implement spotter-gqc and keep the transcript reader fast' });
    const first = await hook('Stop', {});
    if (first.code !== 0 || !/imported/.test(first.err))
      throw new Error(`the first import failed: ${first.err}`);

    const samples = { bare: [], noop: [], imports: [], start: [] };
    for (let i = 0; i < runs; i++) {
      samples.bare.push((await timed(['-e', '0'], '', env, repo)).ms);
      const noop = await hook('Stop', {});
      if (!/nothing new/.test(noop.err)) throw new Error(`the no-op Stop did work: ${noop.err}`);
      samples.noop.push(noop.ms);
      appendFileSync(transcript, newLines);
      const imp = await hook('Stop', {});
      if (!/imported/.test(imp.err)) throw new Error(`the import Stop imported nothing: ${imp.err}`);
      samples.imports.push(imp.ms);
      const start = await hook('SessionStart', { source: 'clear', session_id: `bench-${i}` });
      if (!/additionalContext/.test(start.out))
        throw new Error(`the SessionStart did not inject: ${start.err}`);
      samples.start.push(start.ms);
    }
    const bare = median(samples.bare);
    const row = (name, xs, target) => {
      const m = median(xs);
      const ratio = m / bare;
      return {
        name,
        value: `${fmt(m)} ms`,
        note: `${fmt(ratio, 1)}x bare node (target at most ${target}x: ${ratio <= target ? 'met' : 'not met'}); median of ${xs.length}`,
      };
    };
    return [
      {
        name: 'bare `node -e 0`',
        value: `${fmt(bare)} ms`,
        note: `median of ${runs}, the baseline of this run`,
      },
      row('no-op Stop (nothing new in the transcript)', samples.noop, 2.5),
      row(`Stop importing 100 new lines of a ${mb} MB transcript`, samples.imports, 4),
      row('SessionStart injecting the context (source clear)', samples.start, 4),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
