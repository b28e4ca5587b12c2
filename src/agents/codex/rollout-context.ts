import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { IncrementalTranscriptParser, ParserNote } from '../runtime/transcript-signals.js';
import type { ParsedTranscript } from '../transcript-types.js';
import { CodexRolloutParser } from './rollout.js';

/** How often a rollout not found yet is looked for again while the agent runs. */
const LOOK_AGAIN_MS = 1_000;
/** A rollout met already long is read from this far before its end (its latest token counts are there). */
const TAIL_BYTES = 4 << 20;
/** The lines that carry token counts and the model's window: the only ones read. */
const countsLine = /"type":"(?:token_count|task_started)"/;
/** Day folders looked through, newest first (a resumed thread writes on in the rollout of the day it began). */
const DAYS_SEARCHED = 400;

/**
 * `codex exec --json` reports the thread's token totals, never how full the context is; the rollout Codex writes
 * for the same thread (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`) does, in each
 * `token_count` event (`last_token_usage`, `model_context_window`). This parser reads the exec events and, once the
 * thread id is known, follows that rollout for its token counts: the run then sees the context as Codex measures it.
 * A rollout that cannot be found (a Codex in a container, another CODEX_HOME) leaves the exec events' figures, and
 * `notes()` says so at the end.
 */
export class ExecWithRollout implements IncrementalTranscriptParser {
  private path: string | null = null;
  private offset = -1;
  private rest = Buffer.alloc(0);
  private lookedAt = 0;
  private readonly tokens = new CodexRolloutParser();
  private read = false;
  private failure: string | null = null;

  constructor(
    private readonly exec: CodexRolloutParser,
    private readonly sessionsDir: string,
  ) {}

  push(chunk: string): void {
    this.exec.push(chunk);
  }

  snapshot(): ParsedTranscript {
    return this.merged(this.exec.snapshot(), false);
  }

  end(): ParsedTranscript {
    return this.merged(this.exec.end(), true);
  }

  /** At the end: a rollout never found, or one that could not be read, is said (the context was not measured). */
  notes(): ParserNote[] {
    const id = this.exec.snapshot().session_id;
    const about = 'codex-context-not-measured';
    if (this.failure) return [{ about, text: `Codex's context was not measured: ${this.failure}` }];
    return id && !this.path
      ? [
          {
            about,
            text: `Codex's context was not measured: no rollout of thread ${id} under ${this.sessionsDir} (Codex in a container, or another CODEX_HOME); its own compaction is what keeps it within its window`,
          },
        ]
      : [];
  }

  private merged(t: ParsedTranscript, final: boolean): ParsedTranscript {
    if (t.session_id) this.follow(t.session_id, final);
    if (!this.read) return t;
    const r = this.tokens.snapshot().usage;
    if (r.context_tokens === null) return t;
    const totals =
      r.total_tokens > t.usage.total_tokens
        ? {
            input_tokens: r.input_tokens,
            output_tokens: r.output_tokens,
            cache_creation_input_tokens: r.cache_creation_input_tokens,
            cache_read_input_tokens: r.cache_read_input_tokens,
            total_tokens: r.total_tokens,
          }
        : {};
    return {
      ...t,
      usage: {
        ...t.usage,
        ...totals,
        context_tokens: r.context_tokens,
        peak_context_tokens: r.peak_context_tokens,
        context_window: r.context_window ?? t.usage.context_window,
      },
    };
  }

  /**
   * Reads what the rollout gained since the last look: only its whole lines that carry token counts, so a long
   * thread costs little; a rollout already long when found is read from near its end. A failure to read it stops
   * the following and is said at the end (`notes`), never thrown into the run.
   */
  private follow(threadId: string, final: boolean): void {
    if (this.failure) return;
    if (!this.path) {
      const now = Date.now();
      if (!final && now - this.lookedAt < LOOK_AGAIN_MS) return;
      this.lookedAt = now;
      this.path = findRollout(this.sessionsDir, threadId);
      if (!this.path) return;
    }
    let fd: number | null = null;
    try {
      fd = openSync(this.path, 'r');
      const size = fstatSync(fd).size;
      // first look: from the start, or from near the end of a long rollout (its first, partial line dropped)
      const tail = this.offset < 0 && size > TAIL_BYTES;
      if (this.offset < 0) this.offset = tail ? size - TAIL_BYTES : 0;
      if (size <= this.offset) return;
      const buf = Buffer.alloc(size - this.offset);
      const n = readSync(fd, buf, 0, buf.length, this.offset);
      this.offset += n;
      let bytes = Buffer.concat([this.rest, buf.subarray(0, n)]);
      if (tail) bytes = bytes.subarray(bytes.indexOf(0x0a) + 1);
      const cut = bytes.lastIndexOf(0x0a) + 1;
      this.rest = Buffer.from(bytes.subarray(cut));
      const counts = bytes
        .subarray(0, cut)
        .toString('utf8')
        .split('\n')
        .filter((l) => countsLine.test(l));
      if (counts.length) {
        this.tokens.push(`${counts.join('\n')}\n`);
        this.read = true;
      }
    } catch (e) {
      this.failure = `its rollout ${this.path} could not be read: ${(e as Error).message}`;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
}

/** The rollout of a thread: the newest day folders first; null when none holds it. */
export function findRollout(sessionsDir: string, threadId: string): string | null {
  const suffix = `-${threadId}.jsonl`;
  const newestFirst = (dir: string) => {
    try {
      return readdirSync(dir)
        .filter((n) => /^\d+$/.test(n))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  };
  let days = 0;
  for (const year of newestFirst(sessionsDir))
    for (const month of newestFirst(join(sessionsDir, year)))
      for (const day of newestFirst(join(sessionsDir, year, month))) {
        if (++days > DAYS_SEARCHED) return null;
        const dir = join(sessionsDir, year, month, day);
        try {
          const name = readdirSync(dir).find((n) => n.startsWith('rollout-') && n.endsWith(suffix));
          if (name) return join(dir, name);
        } catch {
          // a folder that went away meanwhile: the next one
        }
      }
  return null;
}
