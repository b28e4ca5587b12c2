import { describe, expect, it } from 'vitest';
import { compactionBody } from './compaction-words.js';

describe('compactionBody', () => {
  it('leaves out the words Claude Code addresses to the conversation it continues', () => {
    const summary = [
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
      '',
      'Summary:',
      '1. Primary Request and Intent: implement spotter-gqc',
      '9. Optional Next Step: write the ReviewContextBuilder',
      '',
      'If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/u/.claude/projects/p/258c.jsonl',
      'Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.',
    ].join('\n');
    expect(compactionBody(summary)).toBe(
      'Summary:\n1. Primary Request and Intent: implement spotter-gqc\n9. Optional Next Step: write the ReviewContextBuilder',
    );
  });

  it('reads the older opening, and keeps a summary without these words as it is', () => {
    expect(
      compactionBody(
        'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis: the parser was rewritten.',
      ),
    ).toBe('Analysis: the parser was rewritten.');
    const plain = 'The user asked to please continue the work on the parser; it is half done.';
    expect(compactionBody(plain)).toBe(plain);
  });

  it('leaves out the analysis Claude Code writes before its summary: the summary says what it concluded', () => {
    const text = [
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
      '',
      'Analysis:',
      'Let me chronologically analyze the conversation:',
      '1. **Initial Request**: the user asked about a hanging test.',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   - Fix the hanging resume test',
    ].join('\n');
    expect(compactionBody(text)).toBe('1. Primary Request and Intent:\n   - Fix the hanging resume test');
    // an analysis with no summary after it is all there is
    expect(compactionBody('Analysis:\nthe parser was rewritten')).toBe('Analysis:\nthe parser was rewritten');
  });
});
