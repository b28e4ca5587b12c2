import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEntry } from '../../agents/transcript-types.js';
import { invalidInput } from '../../core/index.js';
import type { Extractor } from '../extractor.js';
import { repoRoot } from './labels.js';

/**
 * Probe sentences of the decision rules (`src/extraction/rules/decisions/decision-probes*.txt`): short turns of other
 * projects' sessions, each labelled a decision or not. A case is one line "ID + a: text" (a decision, stated in that
 * assistant line) or "ID - a: text" (no decision may be found anywhere), or a header "ID +N (note)" / "ID - (note)"
 * followed by indented turns, N being the index of the turn that holds the decision (a user turn: the agent's reply
 * right after it counts too). Turns: "a:" assistant text, "t:" assistant thinking, "u:" user; "\n" is a line break.
 */
export interface Probe {
  id: string;
  decision: boolean;
  /** The turn that holds the decision (a user turn: the agent's reply right after it counts too). */
  target: number;
  turns: { role: 'assistant' | 'user'; kind: 'text' | 'thinking'; text: string }[];
}

/** The tuned set (the rules were fitted to it) and the blind one (nobody who tunes the rules reads it). */
export const probeFiles = { tuned: 'decision-probes.txt', blind: 'decision-probes-blind.txt' } as const;

const probeDir = join(repoRoot, 'src', 'extraction', 'rules', 'decisions');

export function readProbes(file: string): Probe[] {
  const probes: Probe[] = [];
  const turn = (raw: string) => {
    const m = /^([aut]): (.*)$/.exec(raw.trim());
    if (!m) throw invalidInput(`bad probe turn: ${raw}`);
    const [, who, text = ''] = m;
    return {
      role: who === 'u' ? ('user' as const) : ('assistant' as const),
      kind: who === 't' ? ('thinking' as const) : ('text' as const),
      text: text.replace(/\\n/g, '\n'),
    };
  };
  for (const line of readFileSync(join(probeDir, file), 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    if (/^\s/.test(line)) {
      probes.at(-1)?.turns.push(turn(line));
      continue;
    }
    const m = /^(\w+) ([+-])(\d*)(?: \(.*\)| (.*))?$/.exec(line);
    if (!m) throw invalidInput(`bad probe line: ${line} (in ${file})`);
    const [, id = '', sign, target, single] = m;
    probes.push({
      id,
      decision: sign === '+',
      target: Number(target || 0),
      turns: single ? [turn(single)] : [],
    });
  }
  return probes;
}

/** One probe through the extractor: the decisions found, whether the labelled one is among them, how many are wrong. */
export async function runProbe(extractor: Extractor, probe: Probe) {
  const entry = (line: number, t: Probe['turns'][number]): TranscriptEntry => ({
    line,
    at: null,
    role: t.role,
    kind: t.kind,
    text: t.text,
    truncated: false,
    tool: null,
    sidechain: false,
  });
  // a case is a passage from the middle of a session: the agent has spoken before it (line 0), so a user turn that
  // opens the case is a reply to the agent, not the session's first request
  const earlier = entry(0, { role: 'assistant', kind: 'text', text: 'Done.' });
  const entries = [earlier, ...probe.turns.map((t, i) => entry(i + 1, t))];
  const { decisions } = await extractor.extract({ entries });
  const lines = decisions.map((d) => d.evidence_line);
  const target = probe.target + 1;
  const hit =
    probe.decision &&
    (lines.includes(target) || (probe.turns[probe.target]?.role === 'user' && lines.includes(target + 1)));
  return { decisions, hit, wrong: decisions.length - (hit ? 1 : 0) };
}

export interface ProbeScore {
  found: number;
  predicted: number;
  labelled: number;
  precision: number;
  recall: number;
  /** One row per case (TP, FN, FP, TN) and what fired: for reading, never for the report of the blind set. */
  rows: string[];
}

/** Runs every probe: decisions found at their line, decisions found where none is labelled. */
export async function measureProbes(extractor: Extractor, probes: readonly Probe[]): Promise<ProbeScore> {
  let found = 0;
  let wrong = 0;
  const rows: string[] = [];
  for (const p of probes) {
    const r = await runProbe(extractor, p);
    if (r.hit) found += 1;
    wrong += r.wrong;
    const verdict = p.decision ? (r.hit ? 'TP' : 'FN') : r.wrong ? 'FP' : 'TN';
    rows.push(`${verdict} ${p.id}: ${p.turns.map((t) => t.text).join(' / ')}`);
    for (const d of r.decisions)
      rows.push(
        `    -> ${d.evidence_line} ${d.decision_type}: ${d.description} | why: ${d.rationale} | over: ${d.alternatives_considered?.join(' ; ') ?? ''}`,
      );
  }
  const labelled = probes.filter((p) => p.decision).length;
  const predicted = found + wrong;
  return {
    found,
    predicted,
    labelled,
    precision: predicted ? found / predicted : 1,
    recall: labelled ? found / labelled : 1,
    rows,
  };
}
