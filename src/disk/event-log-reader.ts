import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BatonEvent } from '../core/index.js';
import { checkLine, looksUnchecked } from './event-line.js';
import { readRegularFile, specialKind } from './read-json.js';

/** Something wrong in a run folder, named by file (relative to the run folder) and line when there is one. */
export interface ReadProblem {
  file: string;
  line: number | null;
  problem: string;
}

interface Candidate {
  /** The event as the line holds it (key order kept: a record rebuilt from it is the original byte for byte). */
  event: BatonEvent;
  /** Its JSON without the checksum: two lines are the same event when these are equal. */
  text: string;
  /** Its checksum matched (a line of an earlier version has none). */
  verified: boolean;
  file: string;
  line: number;
  /** Its seq is between its neighbours' in its own file (an intact line usually is; a damaged seq often is not). */
  inOrder: boolean;
}

export interface EventLogRead {
  /** Whose events were kept: as told, else as the verified lines (or the manifest and folder name) say. */
  workflowId: string | null;
  /** Every event recovered, one per seq, in seq order (gaps possible: see `problems`). */
  events: BatonEvent[];
  /** How many of `events` were read from a line whose checksum matched (the others are an earlier version's). */
  verified: number;
  problems: ReadProblem[];
  files: string[];
  /** Lines that repeat an event already read (a crash between the append and the manifest; harmless). */
  duplicates: number;
}

/** Whose run a folder is when nobody says: its manifest's id and its name, weighed against what its lines say. */
export interface OwnerHint {
  manifest: string | null;
  folder: string;
}

/** The `.jsonl` files under `dir`, depth first in name order. Anything but a regular file is skipped with a warning. */
function jsonlFiles(dir: string, problems: ReadProblem[], root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    if (!missing || dir !== join(root, 'events'))
      problems.push({ file: relative(root, dir) || '.', line: null, problem: `unreadable: ${describe(e)}` });
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let st;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if (st.isDirectory()) out.push(...jsonlFiles(path, problems, root));
    else if (!name.endsWith('.jsonl')) continue;
    else if (st.isFile()) out.push(path);
    else problems.push({ file: relative(root, path), line: null, problem: `${specialKind(st)}: skipped` });
  }
  return out;
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

function parseFile(path: string, rel: string, problems: ReadProblem[]): Candidate[] {
  const file = readRegularFile(path);
  if (!file.ok) {
    problems.push({
      file: rel,
      line: null,
      problem: file.reason === 'special' ? 'not a regular file: skipped' : `unreadable: ${file.message}`,
    });
    return [];
  }
  const lines = file.text.split('\n');
  const out: Candidate[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const last = i === lines.length - 1;
    const bad = (problem: string) => problems.push({ file: rel, line: i + 1, problem });
    const check = checkLine(line);
    if (check.kind === 'damaged') return bad(check.problem);
    let json: unknown;
    try {
      json = JSON.parse(check.json);
    } catch (e) {
      return bad(last ? `truncated line (no newline, not valid JSON)` : `not valid JSON: ${describe(e)}`);
    }
    if (check.kind === 'unchecked') {
      const stray = looksUnchecked(json);
      if (stray) return bad(stray);
    }
    const parsed = BatonEvent.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return bad(`not a Baton event: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
    }
    out.push({
      event: json as BatonEvent,
      text: check.json,
      verified: check.kind === 'verified',
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

const mostCommon = (ids: string[]): string | null => {
  const n = new Map<string, number>();
  for (const id of ids) n.set(id, (n.get(id) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
};

/**
 * Whose events to keep. Verified lines cannot lie about it; without them the manifest and the folder's name are
 * believed when they agree, and when they do not (one of them damaged or renamed) the one more lines name wins.
 */
function ownerOf(all: Candidate[], told: string | null | undefined, hint: OwnerHint): string | null {
  if (told !== undefined && told !== null) return told;
  const verified = mostCommon(all.filter((c) => c.verified).map((c) => c.event.workflow_id));
  if (verified) return verified;
  if (told === null) return mostCommon(all.map((c) => c.event.workflow_id));
  if (hint.manifest === null || hint.manifest === hint.folder) return hint.folder;
  const count = (id: string) => all.filter((c) => c.event.workflow_id === id).length;
  return count(hint.folder) > count(hint.manifest) ? hint.folder : hint.manifest;
}

/**
 * Reads every `events/**\/*.jsonl` of a run folder, tolerantly: a line that is damaged (its checksum does not
 * match), not valid JSON or not a Baton event is skipped and reported with its file and line number; repeated lines
 * count once; of two different lines claiming one seq a verified one is kept, else the one in order within its
 * file, and the conflict is reported. FIFOs, sockets and devices are skipped with a warning. Never throws.
 *
 * `told`: the workflow the run belongs to (null: whatever its lines say; undefined: see `hint`).
 */
export function readEventLog(
  runDir: string,
  told: string | null | undefined,
  hint: OwnerHint = { manifest: null, folder: '' },
): EventLogRead {
  const problems: ReadProblem[] = [];
  const files = jsonlFiles(join(runDir, 'events'), problems, runDir);
  const all = files.flatMap((path) => parseFile(path, relative(runDir, path), problems));
  const workflowId = ownerOf(all, told, hint);
  const bySeq = new Map<number, Candidate[]>();
  for (const c of all) {
    if (workflowId !== null && c.event.workflow_id !== workflowId) {
      problems.push({
        file: c.file,
        line: c.line,
        problem: `event of another workflow (${c.event.workflow_id}) in the run folder of ${workflowId}`,
      });
      continue;
    }
    bySeq.set(c.event.seq, [...(bySeq.get(c.event.seq) ?? []), c]);
  }
  let duplicates = 0;
  let verified = 0;
  const events: BatonEvent[] = [];
  for (const seq of [...bySeq.keys()].sort((a, b) => a - b)) {
    const list = bySeq.get(seq) ?? [];
    const distinct = [...new Map(list.map((c) => [c.text, c])).values()];
    duplicates += list.length - distinct.length;
    const trusted = distinct.filter((c) => c.verified);
    const pool = trusted.length ? trusted : distinct;
    const chosen = pool.length === 1 ? pool[0] : (pool.find((c) => c.inOrder) ?? pool[0]);
    if (!chosen) continue;
    if (distinct.length > 1) {
      problems.push({
        file: chosen.file,
        line: chosen.line,
        problem: `${distinct.length} different lines claim seq ${seq} (${distinct.map((c) => `${c.file}:${c.line}`).join(', ')}); kept ${chosen.file}:${chosen.line}`,
      });
    }
    if (list.some((c) => c.text === chosen.text && c.verified)) verified++;
    events.push(chosen.event);
  }
  return { workflowId, events, verified, problems, files: files.map((f) => relative(runDir, f)), duplicates };
}
