import { describe, expect, it } from 'vitest';
import { clip, clipEnds } from './clip.js';

const request =
  'Add subtract, multiply and divide to src/math.js with tests; divide must throw on division by zero. Commit each operation separately.';

describe('clip', () => {
  it('leaves a text that fits as it is', () => {
    expect(clip('Add pow', 7)).toBe('Add pow');
  });

  it('cuts at the end of a word, with an ellipsis, within the room', () => {
    const out = clip(request, 60);
    expect(out).toBe('Add subtract, multiply and divide to src/math.js with tests…');
    expect(out.length).toBeLessThanOrEqual(60);
    // a cut that lands inside a word goes back to the word before it
    expect(clip('Document the five operations in README.md', 32)).toBe('Document the five operations in…');
    expect(clip('Document the five operations in README.md', 30)).toBe('Document the five operations…');
  });

  it('leaves no comma or colon dangling before the ellipsis', () => {
    expect(clip('first, second, third and more', 15)).toBe('first, second…');
    expect(clip('Plan: write the parser', 8)).toBe('Plan…');
  });

  it('cuts a word only when it is too long to keep most of the room (a path, a URL)', () => {
    const path = 'see /home/dev/projects/baton/src/core/context/render-context.ts';
    const out = clip(path, 30);
    expect(out).toBe(`${path.slice(0, 29)}…`);
    expect(out.length).toBe(30);
  });
});

describe('a cut inside a markdown table', () => {
  const table = [
    'Done. The figures:',
    '',
    '| file | before | after |',
    '| --- | --- | --- |',
    ...Array.from({ length: 12 }, (_, i) => `| src/module-${i}.ts | ${i * 10} ms | ${i * 4} ms |`),
    '',
    'Shall I commit?',
  ].join('\n');

  it('ends at the last whole row, the ellipsis on a line of its own, within the room', () => {
    // rooms that cut inside a row, and one that ends where a row ends
    const rowEnd = table.indexOf('\n', table.indexOf('| src/module-2.ts')) + 2;
    for (const max of [150, 200, 251, rowEnd]) {
      const cut = clip(table, max);
      expect(cut.length, `at ${max}`).toBeLessThanOrEqual(max);
      const lines = cut.split('\n');
      expect(lines.at(-1)).toBe('…');
      // every row it keeps is whole
      for (const l of lines.filter((x) => x.startsWith('|'))) expect(table.split('\n')).toContain(l);
    }
    expect(clip(table, rowEnd).split('\n').at(-2)).toBe('| src/module-2.ts | 20 ms | 8 ms |');
  });

  it('cuts a row only when the rows before it would keep too little (one long row)', () => {
    const long = `| ${'cell '.repeat(60)}|`;
    const cut = clip(long, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut.endsWith('cell…')).toBe(true);
  });
});

describe('clipEnds', () => {
  it('keeps both ends whole-worded, " … " between', () => {
    const out = clipEnds(request, 90);
    expect(out.length).toBeLessThanOrEqual(90);
    expect(out).toBe(
      'Add subtract, multiply and divide to … division by zero. Commit each operation separately.',
    );
    // cut inside a word at either end, each end goes to the word's edge (the head back, the tail on)
    expect(clipEnds(request, 70)).toBe(
      'Add subtract, multiply and … zero. Commit each operation separately.',
    );
    expect(clipEnds('alpha beta gamma delta epsilon zeta theta iota kappa lambda', 40)).toBe(
      'alpha beta gamma … iota kappa lambda',
    );
    const [head, tail] = clipEnds(request, 70).split(' … ') as [string, string];
    expect(request.startsWith(head) && request.endsWith(tail)).toBe(true);
  });

  it('gives the tail the room a head cut back to a word left', () => {
    const text = 'continue, then add a CHANGELOG.md listing the five operations';
    expect(clipEnds(text, 40, 62)).toBe('continue, then add a … five operations');
  });

  it('starts a tail that a long head left a few words of at a word, not inside one', () => {
    // a one-line request keeps its first 80 characters: the tail's room is 17, and "optional" is no path
    const text =
      'Add a discount module to the shop: percentage and fixed-amount discounts applied to the cart total, never below zero, with tests. Then wire it into checkout so checkout() takes an optional discount.';
    const out = clipEnds(text, 100, 81);
    expect(out).toBe(
      'Add a discount module to the shop: percentage and fixed-amount discounts applied … discount.',
    );
    // the same after a text whose tail had to skip a negated sentence: one cut leaves nothing behind for the next
    const negated =
      'Keep the docs honest and do not rerun the model calls, install packages, repeat the full test suite, or commit, push and open a pull request for this change at all. Update the docs.';
    expect(clipEnds(negated, 60, 20)).toBe('Keep the docs honest and … Update the docs.');
    expect(clipEnds(text, 100, 81)).toBe(out);
    // a word too long for most of the whole room (a path) is still cut where it must be
    const path = `see ${'x '.repeat(60)}/home/user/projects/shop/src/discounts/percentage-and-fixed-amount.ts`;
    expect(clipEnds(path, 60, 30).length).toBe(60);
    expect(clipEnds(path, 60, 30)).toMatch(/ … [a-z-]+\.ts$/);
  });

  it('starts a tail that would begin inside the last word at that word, the head giving it the room', () => {
    // a user's request in claude-code/entire-cli/9f/d2fc39aa5f/0/full.jsonl (one line: its first 80 characters
    // kept), which the Goal of a 400-token briefing showed as "… Could it be a timeout failing … Y_OPTOUT."
    const text =
      'Hm, ok, nothing obvious in the trace. Could it be a timeout failing to reach Posthog or something? It is definitely solved when i disable telemetry with ENTIRE_TELEMETRY_OPTOUT.';
    for (const max of [70, 80, 90, 100]) {
      const out = clipEnds(text, max, 81);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out).toMatch(/^Hm, ok, nothing obvious in the trace\. Could\b.* … ENTIRE_TELEMETRY_OPTOUT\.$/);
    }
    expect(clipEnds(text, 80, 81)).toBe(
      'Hm, ok, nothing obvious in the trace. Could it be a … ENTIRE_TELEMETRY_OPTOUT.',
    );
    // a last word too long for most of the room (a path) is still cut where it must be: its end names the file
    const path = `${'see '.repeat(30)}/home/user/projects/shop/src/discounts/percentage-and-fixed-amount.ts`;
    expect(clipEnds(path, 60, 30)).toMatch(/ … [a-z-]+\.ts$/);
  });

  it('leaves out a tail that would start inside a name too long for its room: the head takes the room', () => {
    // the same request in the room the 400-token briefing gave it
    const text =
      'Hm, ok, nothing obvious in the trace. Could it be a timeout failing to reach Posthog or something? It is definitely solved when i disable telemetry with ENTIRE_TELEMETRY_OPTOUT.';
    for (const max of [50, 57]) {
      const out = clipEnds(text, max, 81);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out).toMatch(/^Hm, ok, nothing obvious in the trace\. Could it be\b[^…]*…$/);
    }
    // a text written without spaces keeps both its ends
    const chinese = `请修复登录页面的错误${'并且'.repeat(40)}然后提交并推送`;
    expect(clipEnds(chinese, 40)).toMatch(/^请修复登录页面.* … .*然后提交并推送$/);
  });

  it('keeps its first line whole when asked to', () => {
    const text = `Fix the login bug\n${'x '.repeat(200)}and tell me what broke it`;
    expect(clipEnds(text, 40, 18)).toBe('Fix the login bug … me what broke it');
  });

  it('never starts the tail after a negation it leaves out: the tail starts at the next sentence instead', () => {
    const text =
      'Edit only PLAN.md and README.md. The tests already passed; do not rerun them, install, commit, push or open a PR. Then report back.';
    // a tail from the cut alone would read "… commit, push or open a PR. Then report back.", an order
    expect(clipEnds(text, 80)).toBe('Edit only PLAN.md and README.md. … Then report back.');
    // a negation the tail keeps, or one in another sentence, changes nothing
    expect(clipEnds('Do not push. Then edit PLAN.md and README.md and commit them both', 50)).toBe(
      'Do not push. Then … README.md and commit them both',
    );
    // with no sentence after it, the head is all, in all the room
    expect(clipEnds('Edit PLAN.md and README.md, but never commit, push or open a pull request', 50)).toBe(
      'Edit PLAN.md and README.md, but never commit…',
    );
  });
});

describe('a cut inside a fenced code block', () => {
  const code = Array.from({ length: 40 }, (_, i) => `  step(${i}); // keeps going`).join('\n');
  const issue = `Fix the parser.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThen run the tests and commit.`;
  const fences = (t: string) => t.match(/^[ \t]*```/gm)?.length ?? 0;

  it('closes the block after the ellipsis, within the room', () => {
    const out = clip(issue, 120);
    expect(out.length).toBeLessThanOrEqual(120);
    expect(fences(out)).toBe(2);
    expect(out).toMatch(/…\n```$/);
  });

  it('ends before the fence when none of its code would be kept (never an empty block)', () => {
    const out = clip(issue, 25);
    expect(out).toBe('Fix the parser.…');
  });

  it('keeps both ends out of the block: the head closed, the tail after the closing fence', () => {
    for (const max of [60, 120, 300, 600]) {
      const out = clipEnds(issue, max, 16);
      expect(out.length, `${max}`).toBeLessThanOrEqual(max);
      expect(fences(out) % 2, `${max}: ${out}`).toBe(0);
      expect(out.endsWith('Then run the tests and commit.'), `${max}`).toBe(true);
    }
    // the head's block closed, the tail on a line of its own
    expect(clipEnds(issue, 300, 16)).toMatch(
      /…\n```\n\nThen run the tests and commit\.$|…\n```\nThen run the tests and commit\.$/,
    );
  });
});
