import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsConversation, launchedToResume } from './resumed-launch.js';

describe('a Claude Code launched to take up an earlier conversation', () => {
  it('is told by its resuming flags, before a `--`', () => {
    for (const args of [
      ['claude', '--resume'],
      ['claude', '--resume', 'b6c1'],
      ['claude', '--resume=b6c1'],
      ['claude', '-r'],
      ['claude', '-c'],
      ['/usr/bin/node', '/opt/claude-code/cli.js', '--continue', '--model', 'opus'],
      ['claude', '--from-pr', '412'],
    ])
      expect(launchedToResume(args), args.join(' ')).toBe(true);
    for (const args of [
      ['claude'],
      ['claude', '--model', 'opus', 'fix the build'],
      ['claude', '--', '-c'],
      ['claude', '--resumes'],
      ['claude', 'resume the work on -c'],
    ])
      expect(launchedToResume(args), args.join(' ')).toBe(false);
  });
});

describe('a transcript that holds a conversation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-resumed-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('has a message of the user or the agent; a missing one, an empty one or snapshots alone have none', () => {
    expect(holdsConversation(null)).toBe(false);
    expect(holdsConversation(join(dir, 'missing.jsonl'))).toBe(false);
    expect(holdsConversation(file('empty.jsonl', ''))).toBe(false);
    expect(
      holdsConversation(
        file('snapshot.jsonl', '{"type":"file-history-snapshot","messageId":"m1","snapshot":{}}\n'),
      ),
    ).toBe(false);
    expect(
      holdsConversation(
        file(
          'talk.jsonl',
          '{"type":"file-history-snapshot"}\n{"type":"user","message":{"role":"user","content":"go"}}\n',
        ),
      ),
    ).toBe(true);
    // longer than what is read of its head: a transcript that long holds something
    expect(
      holdsConversation(file('long.jsonl', `{"type":"progress","data":"${'x'.repeat(70_000)}"}\n`)),
    ).toBe(true);
  });
});
