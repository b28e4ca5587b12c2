import { describe, expect, it } from 'vitest';
import type { CompiledContext } from './context-compiler.js';
import { fitToCharacters } from './fit-characters.js';

const snap = { id: 'snap-1', workflow_id: 'wf-1' };

/** A compiler whose briefing is this markdown, whatever the budget: its must-keep facts alone exceed the room. */
const always = (markdown: string) => () =>
  ({ body: markdown, hash: 'h', tokens: 0 }) as unknown as CompiledContext;

describe('a briefing cut to its characters', () => {
  it('leaves a section out whole, a `### ` line its code block quotes included', () => {
    const markdown = [
      '## Session Resume Context',
      '',
      '### Before the Compaction',
      'The agent had written:',
      '```md',
      '### Step 1',
      `${'the plan, at length. '.repeat(40)}`,
      '```',
      '',
      "### Last State (the agent's last message)",
      'Tests pass.',
      '',
      '### What to Do Next',
      'Continue from task "T2: Wire the CLI".',
    ].join('\n');
    const fit = fitToCharacters(always(markdown), snap, 900);
    expect(fit.cut).toBe(true);
    expect(fit.text.length).toBeLessThanOrEqual(900);
    // the quoted "### Step 1" went with its section: no half of the code block is left to open one that never closes
    expect(fit.text).not.toContain('### Step 1');
    expect(fit.text).not.toContain('```');
    expect(fit.text).toContain('### Last State');
    expect(fit.text).toContain('Continue from task "T2: Wire the CLI".');
  });
});
