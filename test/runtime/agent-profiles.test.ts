import { describe, expect, it } from 'vitest';
import { driverFor, resolveProfile } from '../../src/agents/runtime/index.js';

const command = (name: string, config: unknown = {}, resumeToken: string | null = null) => {
  const p = resolveProfile(name, {}, config);
  return driverFor(p).command(p, { prompt: 'do it', resumeToken, cwd: '/w' });
};

describe('agent profiles: the flags an unattended run needs', () => {
  it('Claude Code accepts edits and may use its tools without a person to ask', () => {
    expect(command('claude-code').args).toEqual([
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'Bash,Edit,MultiEdit,Write,Read,Glob,Grep,LS,TodoWrite,NotebookEdit,mcp__baton',
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
  });

  it('Codex exec may write in its workspace, resumed or not', () => {
    expect(command('codex').args).toEqual(['exec', '--json', '--sandbox', 'workspace-write', '-']);
    expect(command('codex', {}, 'thread-1').args).toEqual([
      'exec',
      '--json',
      '--sandbox',
      'workspace-write',
      'resume',
      'thread-1',
      '-',
    ]);
  });

  it("a profile's own args come after them; unattended_args replaces them ([] for none)", () => {
    const opus = { opus: { adapter: 'claude-code', args: ['--model', 'opus'] } };
    expect(command('opus', opus).args.slice(0, 6)).toEqual([
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'Bash,Edit,MultiEdit,Write,Read,Glob,Grep,LS,TodoWrite,NotebookEdit,mcp__baton',
      '--model',
      'opus',
    ]);
    const yolo = {
      box: { adapter: 'claude-code', unattended_args: ['--permission-mode', 'bypassPermissions'] },
    };
    expect(command('box', yolo).args.slice(0, 3)).toEqual(['--permission-mode', 'bypassPermissions', '-p']);
    expect(command('codex', { codex: { unattended_args: [] } }).args).toEqual(['exec', '--json', '-']);
  });
});
