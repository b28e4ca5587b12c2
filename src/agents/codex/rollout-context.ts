import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { IncrementalTranscriptParser } from '../runtime/transcript-signals.js';
import type { ParsedTranscript } from '../transcript-types.js';
import { CodexRolloutParser } from './rollout.js';

/** How often a rollout not found yet is looked for again while the agent runs. */
const LOOK_AGAIN_MS = 1_000;
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
  private offset = 0;
  private rest = '';
  private lookedAt = 0;
  private readonly tokens = new CodexRolloutParser();
  private read = false;

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

  /** At the end: the rollout never found is said (the run's context was not measured), else nothing. */
  notes(): string[] {
    const id = this.exec.snapshot().session_id;
    return id && !this.path
      ? [
          `Codex's context was not measured: no rollout of thread ${id} under ${this.sessionsDir} (Codex in a container, or another CODEX_HOME); its own compaction is what keeps it within its window`,
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

  /** Reads what the rollout gained since the last look (only whole lines), finding the file first. */
  private follow(threadId: string, final: boolean): void {
    if (!this.path) {
      const now = Date.now();
      if (!final && now - this.lookedAt < LOOK_AGAIN_MS) return;
      this.lookedAt = now;
      this.path = findRollout(this.sessionsDir, threadId);
      if (!this.path) return;
    }
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return;
    }
    try {
      const size = fstatSync(fd).size;
      if (size <= this.offset) return;
      const buf = Buffer.alloc(size - this.offset);
      const n = readSync(fd, buf, 0, buf.length, this.offset);
      this.offset += n;
      const text = this.rest + buf.subarray(0, n).toString('utf8');
      const cut = text.lastIndexOf('\n') + 1;
      this.rest = text.slice(cut);
      if (cut > 0) {
        this.tokens.push(text.slice(0, cut));
        this.read = true;
      }
    } finally {
      closeSync(fd);
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
