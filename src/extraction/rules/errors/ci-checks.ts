import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { ErrorDraft } from '../../extractor.js';
import { commandParts, shellCommands } from '../shell-command.js';

/**
 * Failing CI checks the agent read with the GitHub CLI (`gh pr checks`, `gh pr view --json statusCheckRollup`,
 * `gh run list/view`): the command succeeds, the checks it reports failed. That is an error of the work even with
 * exit code 0. One error per turn (a turn's several looks at the same red CI are one problem); fixed when a later
 * report shows a check of the same name passing.
 */

type Status = 'fail' | 'pass';
const failWord = /^(?:failure|failed|fail|timed_out|error)$/i;
const passWord = /^(?:success|pass|passed)$/i;

function statusOf(word: string): Status | null {
  if (failWord.test(word)) return 'fail';
  if (passWord.test(word)) return 'pass';
  return null;
}

/**
 * Check names with their status, from gh's JSON objects, its tab-separated tables (`gh pr checks`, `gh run list`) or
 * `name: STATE` lines; one per name, the first listed (the newest run of a workflow).
 */
export function ciChecks(output: string): { name: string; status: Status }[] {
  const out: { name: string; status: Status }[] = [];
  for (const m of output.matchAll(/\{[^{}]*\}/g)) {
    const obj = m[0];
    const name = /"(?:name|workflowName)"\s*:\s*"([^"]+)"/.exec(obj)?.[1];
    const word = /"(?:conclusion|state|bucket)"\s*:\s*"(\w+)"/.exec(obj)?.[1];
    const status = word ? statusOf(word) : null;
    if (name && status) out.push({ name, status });
  }
  for (const m of output.matchAll(/^([^\t\n]{1,80})\t(fail|pass)\t/gm))
    out.push({ name: (m[1] ?? '').trim(), status: m[2] === 'fail' ? 'fail' : 'pass' });
  for (const m of output.matchAll(/^([\w .()/-]{1,80}): (FAILURE|SUCCESS|fail|pass)\s*$/gm)) {
    const status = statusOf(m[2] ?? '');
    if (status) out.push({ name: (m[1] ?? '').trim(), status });
  }
  // `gh run list` as a table: STATUS, CONCLUSION, TITLE, WORKFLOW, BRANCH, EVENT, ID, ELAPSED, AGE
  for (const m of output.matchAll(/^completed\t(\w*)\t[^\t\n]*\t([^\t\n]{1,80})\t/gm)) {
    const status = statusOf(m[1] ?? '');
    if (status) out.push({ name: (m[2] ?? '').trim(), status });
  }
  // gh lists runs newest first: a workflow's older runs are history, its newest one says how it stands
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.name) && seen.add(c.name));
}

const readsCi = (e: TranscriptEntry) =>
  shellCommands(e).some((c) =>
    commandParts(c).some((p) => /^gh (?:pr (?:checks|view)|run (?:list|view))\b/.test(p)),
  );

export function findCiFailures(entries: readonly TranscriptEntry[], taskId: string | null): ErrorDraft[] {
  const out: ErrorDraft[] = [];
  let open: { draft: ErrorDraft; names: Set<string> } | null = null;
  const all: { draft: ErrorDraft; names: Set<string> }[] = [];
  for (const e of entries) {
    if (e.sidechain) continue;
    if (e.role === 'user' && e.kind === 'text' && !e.queued) open = null;
    if (e.kind !== 'tool_result' || !readsCi(e)) continue;
    const checks = ciChecks(e.text);
    for (const check of checks.filter((c) => c.status === 'pass'))
      for (const err of all)
        if (err.draft.resolution !== 'fixed' && err.names.has(check.name)) {
          err.draft.resolution = 'fixed';
          err.draft.resolution_notes = `check ${check.name} passed later (transcript line ${e.line})`;
        }
    const failing = [...new Set(checks.filter((c) => c.status === 'fail').map((c) => c.name))];
    if (failing.length === 0) continue;
    if (open) {
      for (const name of failing) open.names.add(name);
      continue;
    }
    const draft: ErrorDraft = {
      task_id: taskId,
      error_type: 'ci_failure',
      error_message: `CI check failed: ${failing.join(', ')}`,
      context: null,
      resolution: 'unresolved',
      resolution_notes: null,
      at: e.at,
      evidence_line: e.line,
    };
    open = { draft, names: new Set(failing) };
    all.push(open);
    out.push(draft);
  }
  return out;
}
