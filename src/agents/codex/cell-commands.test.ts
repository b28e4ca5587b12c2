import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { failed } from '../../extraction/rules/errors/failure.js';
import { findFileEffects } from '../../extraction/session/file-effects.js';
import { shellCommands } from '../../extraction/rules/shell-command.js';
import { ParsedTranscript } from '../transcript-types.js';
import { parseCodexRollout } from './rollout.js';

/**
 * Codex 0.154 on records each command a code-mode cell runs as an `item_completed` CommandExecution event, with its
 * exit code and output, between the cell's call and the cell's output (which shows only what the cell printed).
 */
const jev = 'codex/petercr-jev-orchestrator/3/full.jsonl';

const at = '2026-10-01T23:21:58.558Z';
const line = (type: string, payload: object) => JSON.stringify({ timestamp: at, type, payload });
const cell = (id: string, code: string) =>
  line('response_item', { type: 'custom_tool_call', name: 'exec', call_id: id, input: code });
const cellOutput = (id: string, printed: string) =>
  line('response_item', {
    type: 'custom_tool_call_output',
    call_id: id,
    output: [{ type: 'input_text', text: `Script completed\nWall time 0.1 seconds\nOutput:\n${printed}` }],
  });
const run = (id: string, script: string, exit: number, output: string) =>
  line('event_msg', {
    type: 'item_completed',
    item: {
      type: 'CommandExecution',
      id,
      command: ['/bin/bash', '-lc', script],
      status: exit === 0 ? 'completed' : 'failed',
      exit_code: exit,
      aggregated_output: output,
    },
  });

describe('the commands of a code-mode cell, as Codex records them', () => {
  it('reads a failure the cell kept to itself (a result stored, never printed), at the line Codex wrote it', () => {
    const t = parseCodexRollout(readCorpus(jev));
    expect(ParsedTranscript.parse(t)).toBeTruthy();
    const hashing = t.entries.find((e) => e.line === 48 && e.kind === 'tool_result');
    expect(hashing?.tool).toMatchObject({ name: 'exec_command', exit_code: 1, is_error: true });
    expect(hashing?.text).toContain(
      "IsADirectoryError: [Errno 21] Is a directory: '.claude/skills/address-findings'",
    );
    expect(hashing && shellCommands(hashing)[0]).toMatch(/^python3 - <<'PY'/);
    expect(hashing && failed(hashing)).toBe(true);
    // the cell's own output: what it printed, its commands already recorded with their exit codes
    const output = t.entries.find((e) => e.line === 51 && e.kind === 'tool_result');
    expect(output?.tool).toMatchObject({ name: 'exec', exit_code: null, commands_apart: true });
    expect(output && shellCommands(output)).toEqual([]);
  });

  it('records each command once, keeps a cell without such events as it was, and carries an open cell across reads', () => {
    const lines = [
      cell('c1', 'text(await tools.exec_command({cmd:"npm test"}));'),
      run('x1', 'npm test', 1, 'Tests  1 failed | 4 passed (5)'),
      cellOutput('c1', '{"exit_code":1,"output":"Tests  1 failed | 4 passed (5)"}'),
      cell('c2', 'text(await tools.exec_command({cmd:"git status --short"}));'),
      cellOutput('c2', '{"exit_code":0,"output":" M a.ts"}'),
      // a CommandExecution outside any cell (a plain exec_command call has its own end event): not a cell's
      run('x2', 'ls', 0, 'a.ts'),
    ];
    const whole = parseCodexRollout(lines.join('\n'));
    const results = whole.entries.filter((e) => e.kind === 'tool_result');
    expect(
      results.map((e) => [e.line, e.tool?.name, e.tool?.exit_code, e.tool?.commands_apart ?? false]),
    ).toEqual([
      [2, 'exec_command', 1, false],
      [3, 'exec', null, true],
      [5, 'exec', 0, false],
    ]);
    // read in two parts, the cell open at the cut
    const first = parseCodexRollout(lines.slice(0, 2).join('\n'));
    const rest = parseCodexRollout(lines.slice(2).join('\n'), { startLine: 2, state: first.state });
    expect(rest.entries.find((e) => e.line === 3)?.tool?.commands_apart).toBe(true);
  });

  it('reads the files a patch the cell applied changed, however the cell wrote the patch; not a patch that failed', () => {
    const change = (id: string, status: string, changes: object) =>
      line('event_msg', { type: 'item_completed', item: { type: 'FileChange', id, status, changes } });
    const lines = [
      cell(
        'c1',
        'const p = `*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch`;\nawait tools.apply_patch(p);',
      ),
      change('f1', 'completed', {
        'src/a.ts': { type: 'update', unified_diff: '-a\n+b', move_path: null },
        'src/old.ts': { type: 'update', unified_diff: '', move_path: 'src/new.ts' },
      }),
      change('f2', 'failed', { 'src/c.ts': { type: 'delete' } }),
      cellOutput('c1', 'Success.'),
    ];
    const effects = findFileEffects(parseCodexRollout(lines.join('\n')).entries).map((e) => e.summary);
    expect(effects).toEqual(['edited src/a.ts', 'deleted src/old.ts', 'created src/new.ts']);
  });
});
