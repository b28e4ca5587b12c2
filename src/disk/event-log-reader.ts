import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BatonEvent } from '../core/index.js';

/** Something wrong in a run folder, named by file (relative to the run folder) and line when there is one. */
export interface ReadProblem {
  file: string;
  line: number | null;
  problem: string;
}

interface Candidate {
  event: BatonEvent;
  text: string;
  file: string;
  line: number;
  /** Its seq is between its neighbours' in its own file (an intact line usually is; a damaged seq often is not). */
  inOrder: boolean;
}

export interface EventLogRead {
  /** Every event recovered, one per seq, in seq order (gaps possible: see `problems`). */
  events: BatonEvent[];
  problems: ReadProblem[];
  files: string[];
  /** Lines that repeat an event already read (a crash between the append and the manifest; harmless). */
  duplicates: number;
}

function jsonlFiles(dir: string, problems: ReadProblem[], root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (e) {
    problems.push({
      file: relative(root, dir) || '.',
      line: null,
      problem: `unreadable: ${(e as Error).message}`,
    });
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      continue;
    }
    if (isDir) out.push(...jsonlFiles(path, problems, root));
    else if (name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

function parseFile(
  path: string,
  rel: string,
  workflowId: string | null,
  problems: ReadProblem[],
): Candidate[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    problems.push({ file: rel, line: null, problem: `unreadable: ${describe(e)}` });
    return [];
  }
  const lines = text.split('\n');
  const out: Candidate[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const last = i === lines.length - 1;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      problems.push({
        file: rel,
        line: i + 1,
        problem: last ? `truncated line (no newline, not valid JSON)` : `not valid JSON: ${describe(e)}`,
      });
      return;
    }
    const parsed = BatonEvent.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push({
        file: rel,
        line: i + 1,
        problem: `not a Baton event: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
      });
      return;
    }
    if (workflowId !== null && parsed.data.workflow_id !== workflowId) {
      problems.push({
        file: rel,
        line: i + 1,
        problem: `event of another workflow (${parsed.data.workflow_id}) in the run folder of ${workflowId}`,
      });
      return;
    }
    out.push({
      event: parsed.data,
      text: JSON.stringify(parsed.data),
      file: rel,
      line: i + 1,
      inOrder: true,
    });
  });
  out.forEach((c, i) => {
    const prev = out[i - 1]?.event.seq ?? 0;
    const next = out[i + 1]?.event.seq ?? Infinity;
    c.inOrder = prev <= c.event.seq && c.event.seq <= next;
  });
  return out;
}

/**
 * Reads every `events/**\/*.jsonl` of a run folder, tolerantly: a line that is not valid JSON or not a Baton
 * event is skipped and reported with its file and line number; repeated lines count once; two different lines
 * claiming one seq are reported and the one in order within its file is kept. Never throws.
 */
export function readEventLog(runDir: string, workflowId: string | null): EventLogRead {
  const problems: ReadProblem[] = [];
  const files = jsonlFiles(join(runDir, 'events'), problems, runDir);
  const bySeq = new Map<number, Candidate[]>();
  for (const path of files) {
    for (const c of parseFile(path, relative(runDir, path), workflowId, problems)) {
      const list = bySeq.get(c.event.seq) ?? [];
      list.push(c);
      bySeq.set(c.event.seq, list);
    }
  }
  let duplicates = 0;
  const events: BatonEvent[] = [];
  for (const seq of [...bySeq.keys()].sort((a, b) => a - b)) {
    const list = bySeq.get(seq) ?? [];
    const distinct = [...new Map(list.map((c) => [c.text, c])).values()];
    duplicates += list.length - distinct.length;
    const chosen = distinct.length === 1 ? distinct[0] : (distinct.find((c) => c.inOrder) ?? distinct[0]);
    if (!chosen) continue;
    if (distinct.length > 1) {
      problems.push({
        file: chosen.file,
        line: chosen.line,
        problem: `${distinct.length} different lines claim seq ${seq} (${distinct.map((c) => `${c.file}:${c.line}`).join(', ')}); kept ${chosen.file}:${chosen.line}`,
      });
    }
    events.push(chosen.event);
  }
  return { events, problems, files: files.map((f) => relative(runDir, f)), duplicates };
}
