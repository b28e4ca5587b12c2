import { describe, expect, it } from 'vitest';
import { onlyBlockDiffers, replaceBlock } from './baton-block.js';

const block = (cli: string) =>
  [
    '<!-- baton:begin (added by `baton init`; `baton init --undo` removes it) -->',
    `run ${cli}`,
    '<!-- baton:end -->',
  ].join('\n');

describe('onlyBlockDiffers', () => {
  const rules = '# Rules\n\nUse tabs.';
  const withBlock = replaceBlock(rules, block('baton')).text;

  it("is Baton's block put in, changed or taken out, whatever blank lines it brought", () => {
    expect(withBlock).toBe(`${rules}\n\n${block('baton')}\n`);
    expect(onlyBlockDiffers(rules, withBlock)).toBe(true);
    expect(onlyBlockDiffers(withBlock, replaceBlock(withBlock, block('npx baton')).text)).toBe(true);
    expect(onlyBlockDiffers(withBlock, rules)).toBe(true);
    // a file made for the block alone (no file before)
    expect(onlyBlockDiffers(null, `${block('baton')}\n`)).toBe(true);
  });

  it("is not a change of the user's, alone or next to the block, nor no change at all", () => {
    expect(onlyBlockDiffers(rules, `${rules}\nLint first.\n`)).toBe(false);
    expect(onlyBlockDiffers(rules, `${withBlock}\nLint first.\n`)).toBe(false);
    expect(onlyBlockDiffers(withBlock, withBlock)).toBe(false);
    expect(onlyBlockDiffers(null, 'notes\n')).toBe(false);
  });
});
