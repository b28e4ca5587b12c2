import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { fitSummary } from './fit-summary.js';

/** The compaction summary Claude Code wrote into a real session (its isCompactSummary line). */
function compactSummary(rel: string): string {
  for (const line of readCorpus(rel).split('\n')) {
    if (!line.includes('"isCompactSummary":true')) continue;
    const c = (JSON.parse(line) as { message: { content: string | { text?: string }[] } }).message.content;
    return typeof c === 'string' ? c : c.map((b) => b.text ?? '').join('');
  }
  throw new Error(`no compaction summary in ${rel}`);
}

/** The agent's messages in a real session that hold code (Claude Code's text blocks, Codex's agent messages). */
function messagesWithCode(rel: string): string[] {
  return readCorpus(rel)
    .split('\n')
    .filter((line) => line.includes('```'))
    .flatMap((line) => {
      const v = JSON.parse(line) as {
        type: string;
        message?: { content: string | { type: string; text?: string }[] };
        payload?: { type?: string; role?: string; message?: string; content?: { text?: string }[] };
      };
      if (v.type === 'assistant' && Array.isArray(v.message?.content))
        return v.message.content.flatMap((b) => (b.type === 'text' && b.text ? [b.text.trim()] : []));
      if (v.type === 'event_msg' && v.payload?.type === 'agent_message') return [v.payload.message ?? ''];
      if (v.type === 'response_item' && v.payload?.role === 'assistant')
        return (v.payload.content ?? []).flatMap((b) => (b.text ? [b.text.trim()] : []));
      return [];
    })
    .filter((text) => text.includes('```'));
}

/** The fenced code blocks of a text with nothing in them (an ellipsis is not code). */
function emptyBlocks(text: string): string[] {
  const found: string[] = [];
  let open = -1;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!/^[ \t]*```/.test(line)) return;
    if (open < 0) return void (open = i);
    if (
      !lines
        .slice(open + 1, i)
        .join('\n')
        .replace(/…/g, '')
        .trim()
    )
      found.push(lines.slice(open, i + 1).join('\n'));
    open = -1;
  });
  return found;
}

const sessions = [
  'claude-code/codemie-code/session-624a4a58.jsonl',
  'claude-code/entire-cli/e5/8c50537669/0/full.jsonl',
  'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
];

describe('fitSummary', () => {
  it.each(sessions)(
    'keeps where the work stands and what is next of a real compaction summary (%s)',
    (rel) => {
      const text = compactSummary(rel);
      const section = (n: number) => new RegExp(`^(?:## )?${n}\\. [A-Z]`, 'm').exec(text)!.index;
      const tail = [7, 8, 9].map((n) => text.slice(section(n), n < 9 ? section(n + 1) : undefined).trim());
      const max = 4000;
      expect(text.length).toBeGreaterThan(max);
      const r = fitSummary(text, max);
      expect(r.text.length).toBeLessThanOrEqual(max);
      // pending tasks, current work and the next step, word for word, and the request
      for (const s of tail) expect(r.text).toContain(s);
      expect(r.text).toMatch(/^(?:## )?1\. Primary Request and Intent:?$/m);
      // the long sections are named where they were, with their size (a run of them in one line)
      expect(r.text).toMatch(
        /^(?:[^\n]*; )?(?:## )?3\. Files and Code Sections(?:; [^\n]*)?: \(\d+ characters left out here\)$/m,
      );
      // what came before the sections (the "Analysis:") is said too
      expect(r.text).toMatch(/^Before the sections: \(\d+ characters left out here\)$/m);
      expect(r.cut).toBeGreaterThan(0);
      expect(r.cut).toBeLessThan(text.length);
    },
  );

  it.each(sessions)(
    'leaves out where the work stood of a compaction the session went on after, whatever the room (%s)',
    (rel) => {
      const text = compactSummary(rel);
      const heading = (n: number) => new RegExp(`^(?:## )?${n}\\. ([A-Z][^\\n]*?):?$`, 'm').exec(text)!;
      const body = (n: number) =>
        text
          .slice(heading(n).index + heading(n)[0].length)
          .trim()
          .slice(0, 60);
      for (const max of [93, 187, 375, 750, 1500, 3000, 6000, 100_000]) {
        const r = fitSummary(text, max, { past: true });
        expect(r.text.length).toBeLessThanOrEqual(max);
        expect(r.cut).toBeGreaterThan(0);
        // pending tasks, current work and the next step are never there
        for (const n of [7, 8, 9]) expect(r.text).not.toContain(body(n));
        // too little room for even the names of the sections: nothing (the briefing leaves the section out)
        if (max < 300) expect(r).toEqual({ text: '', cut: text.trimEnd().length });
        if (!r.text) continue;
        // else they are named in one line that says why
        expect(r.text).toMatch(
          /\(7\. Pending Tasks, 8\. Current Work, 9\. Optional Next Step(?:, what 5\. Problem Solving said was in progress)?: left out, where the work stood then, older than the Last State\)$/,
        );
        // what was asked comes first: its head at the least, given room for more than the sections' names
        if (max >= 750) expect(r.text).toContain(body(1).slice(0, 30));
        // the sections left out one after another are one line, never a heading each
        expect(r.text).not.toMatch(/left out here\)\n\n[^\n]*left out here\)/);
      }
    },
  );

  it("keeps the user's messages and what went wrong before code listings and concepts, and no work in progress, of a compaction the session went on after", () => {
    const text = compactSummary('claude-code/entire-cli/e5/8c50537669/0/full.jsonl');
    const body = (from: string, to: string) =>
      text.slice(text.indexOf(from) + from.length, text.indexOf(to)).trim();
    const asked = body('1. Primary Request and Intent:', '2. Key Technical Concepts:');
    const said = body('6. All user messages:', '7. Pending Tasks:');
    const errors = body('4. Errors and fixes:', '5. Problem Solving:');
    for (const max of [2300, 3000, 6000]) {
      const r = fitSummary(text, max, { past: true });
      expect(r.text.length, `at ${max}`).toBeLessThanOrEqual(max);
      // the request, the user's messages (the first of which says what the session was for) and what went wrong
      expect(r.text, `at ${max}`).toContain(asked.slice(0, 80));
      expect(r.text, `at ${max}`).toContain(said.slice(0, 120));
      // what went wrong next, given room past the user's words
      if (max >= 3000) expect(r.text, `at ${max}`).toContain(errors.slice(0, 80));
      // before the code listings
      expect(r.text, `at ${max}`).not.toContain('```go');
      // what Problem Solving said was in progress then is past, as the sections on where the work stood
      expect(r.text, `at ${max}`).not.toMatch(/In progress: Refactoring/);
      expect(r.text, `at ${max}`).toMatch(
        /left out, where the work stood then, older than the Last State\)$/,
      );
    }
    // with room for all of it but the code, the user's messages whole
    expect(fitSummary(text, 6000, { past: true }).text).toContain(said);
  });

  it('keeps the head of text without numbered sections, and leaves a short text alone', () => {
    const text = 'First part.\n\n'.repeat(100);
    // cut at the end of a word, the ellipsis within the room
    expect(fitSummary(text, 50)).toEqual({ text: `${text.slice(0, 49)}…`, cut: text.length - 49 });
    expect(fitSummary('Done: all 12 tests pass.', 50)).toEqual({ text: 'Done: all 12 tests pass.', cut: 0 });
  });

  it('cuts at the end of a word, with an ellipsis, within the budget', () => {
    const text =
      'The parser handles nested brackets now; remaining: escape sequences and unicode identifiers. '.repeat(
        20,
      );
    const words = new Set(text.split(/\s+/).map((w) => w.replace(/[,;:.]$/, '')));
    for (const max of [50, 61, 77, 100, 333]) {
      const r = fitSummary(text, max);
      expect(r.text.length, String(max)).toBeLessThanOrEqual(max);
      expect(r.text.endsWith('…'), String(max)).toBe(true);
      const shown = r.text.slice(0, -1);
      // the last word shown is a whole word of the text, and the text goes on with a space after it
      expect(
        words.has(
          shown
            .split(/\s+/)
            .at(-1)!
            .replace(/[,;:.]$/, ''),
        ),
        r.text,
      ).toBe(true);
      expect(text.startsWith(shown), r.text).toBe(true);
      expect(r.cut).toBe(text.length - shown.length);
    }
  });

  it("cuts a section that says where the work stands at a word's end too", () => {
    const current = 'Wiring the retry into the uploader and its backoff settings. '.repeat(40).trim();
    const text = [
      '1. Primary Request and Intent:',
      '   Add a retry to the uploader.',
      '2. Key Technical Concepts:',
      'x'.repeat(3000),
      '3. Current Work:',
      current,
    ].join('\n');
    const r = fitSummary(text, 1200);
    expect(r.text.length).toBeLessThanOrEqual(1200);
    const head = /^3\. Current Work:\n([^\n]*)…$/m.exec(r.text)?.[1];
    expect(head, r.text).toBeDefined();
    expect(current.startsWith(head!)).toBe(true);
    expect(current[head!.length]).toBe(' ');
    expect(head).toMatch(/[a-z.]$/);
  });

  it('closes a code fence its cut leaves open', () => {
    const text = `Before\n\`\`\`ts\n${'const x = 1;\n'.repeat(50)}\`\`\`\nAfter`;
    const r = fitSummary(text, 60);
    expect(r.text.match(/```/g)).toHaveLength(2);
    expect(r.text.length).toBeLessThanOrEqual(60);
  });

  it.each([
    'claude-code/codemie-code/session-9eda1058.jsonl',
    'claude-code/codemie-code/session-624a4a58.jsonl',
    'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    'codex/k-kinzal-peq/1/full.jsonl',
    'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
    'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl',
  ])('leaves no empty code block, at any length, in the messages with code of a real session (%s)', (rel) => {
    const texts = messagesWithCode(rel).slice(-3);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts)
      for (let max = 40; max < Math.min(text.length, 2500); max += 1)
        for (const keepEnd of [true, false]) {
          const r = fitSummary(text, max, { keepEnd });
          expect(emptyBlocks(r.text), `${max} ${keepEnd}: ${r.text}`).toEqual([]);
          expect(r.text.length, `${max}`).toBeLessThanOrEqual(max);
        }
  });

  it('keeps, with the head of a last message, the paragraph it ends on: what it asks, what it left running', () => {
    const list = Array.from(
      { length: 30 },
      (_, i) => `${i + 1}. Line ${i + 9}: change the count in the index.`,
    );
    const ask = 'I cannot write outside my folder. Would you like me to go on with the library instead?';
    const text = ['The index is out of date. Changes needed:', ...list, '', ask].join('\n');
    const r = fitSummary(text, 400, { keepEnd: true });
    expect(r.text.length).toBeLessThanOrEqual(400);
    expect(r.text).toMatch(/^The index is out of date\. Changes needed:\n1\. Line 9: [^]*…\n\n/);
    expect(r.text.endsWith(`\n\n${ask}`)).toBe(true);
    // what is not shown: the middle, and the blank line before the ending
    expect(r.cut).toBe(text.length - r.text.indexOf('…') - ask.length);
    // without keepEnd (a compaction summary), the head alone, as before
    expect(fitSummary(text, 400).text).not.toContain('Would you like');
    // an ending too long for half the room keeps the question it ends on
    const long = `${'The spec covers four phases, each with steps and checks. '.repeat(4)}Ready to start with step 1.1?`;
    const q = fitSummary(['Created the spec.', ...list, '', long].join('\n'), 300, { keepEnd: true });
    expect(q.text.length).toBeLessThanOrEqual(300);
    expect(q.text).toMatch(/…\n\n… Ready to start with step 1\.1\?$/);
  });

  it('keeps the calls a last message left open before its head, by both ends when the room is short', () => {
    const said = `All staged cleanly. ${'The parser and its tests are in, the docs too. '.repeat(4)}Committing and pushing now.`;
    const call =
      "`Bash: git add src/parse.ts test/parse.test.ts docs/parse.md && git commit -m 'docs: start work on the parser' && git push origin feature/parser`";
    const notice = `The transcript ends before this call returned (check whether it ran): ${call}`;
    const text = `${said}\n\n${notice}`;
    // room for both: the head cut, the notice whole
    const both = fitSummary(text, 320, { keepEnd: true });
    expect(both.text.endsWith(`\n\n${notice}`)).toBe(true);
    expect(both.text).toMatch(/^All staged cleanly\./);
    // room for the notice alone, cut in its middle: its start and the push it ends with stay
    const short = fitSummary(text, 150, { keepEnd: true });
    expect(short.text.length).toBeLessThanOrEqual(150);
    expect(short.text).toMatch(
      /^The transcript ends before this call returned .* git push origin feature\/parser`$/,
    );
    expect(short.cut).toBe(text.length - short.text.length);
    // said after a sentence, in one paragraph (a session cut off before the agent said anything): the same
    const silent = `The session was cut off before the agent said anything. ${notice}`;
    const one = fitSummary(silent, 150, { keepEnd: true });
    expect(one.text).toMatch(
      /^The transcript ends before this call returned .* git push origin feature\/parser`$/,
    );
  });

  it('keeps the part of a last message that says what is left, not the sign-off after it', () => {
    const delivered = Array.from({ length: 20 }, (_, i) => `- delivered part ${i + 1} of the spec`);
    const next = [
      '### **Next Steps:**',
      '',
      '**Ready for Development:**',
      '1. Copy code from spec to `src/agents/plugins/codex.metrics.ts`',
      '2. Register it in `src/agents/core/metrics-config.ts`',
      '3. Run `npm run build && npm run test`',
    ].join('\n');
    const text = [
      '## Final Summary',
      '',
      ...delivered,
      '',
      next,
      '',
      '---',
      '',
      'Good luck with the implementation!',
    ].join('\n');
    const r = fitSummary(text, 400, { keepEnd: true });
    expect(r.text.length).toBeLessThanOrEqual(400);
    expect(r.text).toMatch(/^## Final Summary\n\n- delivered part 1 [^]*…\n\n### \*\*Next Steps:\*\*\n/);
    expect(r.text.endsWith('3. Run `npm run build && npm run test`')).toBe(true);
    expect(r.text).not.toContain('Good luck');
    // too long for 60% of the room: its head, the message's head before it
    const short = fitSummary(text, 250, { keepEnd: true });
    expect(short.text.length).toBeLessThanOrEqual(250);
    expect(short.text).toMatch(
      /…\n\n### \*\*Next Steps:\*\*\n\n\*\*Ready for Development:\*\*\n1\. Copy [^]*…$/,
    );
    // a question the message ends on after it is kept too
    const asked = fitSummary(`${text}\n\nShall I start with step 1?`, 400, { keepEnd: true });
    expect(asked.text).toMatch(/3\. Run `npm run build && npm run test`\n\n… Shall I start with step 1\?$/);
    // a heading that is a sentence of the text ("Next steps are ...") is no such part
    const prose = [
      'Done.',
      ...delivered,
      '',
      'Next steps are up to you, the rest is in the spec.',
      '',
      'Bye.',
    ].join('\n');
    expect(fitSummary(prose, 200, { keepEnd: true }).text).not.toContain('Next steps');
  });

  it('keeps the head alone when the ending is code, is inside code, or is long and asks nothing', () => {
    const head = `Done. The change:\n${'- one more step of the change\n'.repeat(30)}`;
    for (const end of ['```\nnpm test\n```', 'x '.repeat(200).trim()]) {
      const text = `${head}\n${end}`;
      expect(fitSummary(text, 200, { keepEnd: true })).toEqual(fitSummary(text, 200));
    }
    const open = `Done.\n\n\`\`\`\n${'line\n'.repeat(60)}\nlast line of the output\n\`\`\``;
    expect(fitSummary(open, 120, { keepEnd: true })).toEqual(fitSummary(open, 120));
  });

  it('does not take a numbered item inside a section for the next section', () => {
    const body = (n: number) => 'x'.repeat(n);
    const text = [
      '1. Primary Request and Intent:',
      '   Add a retry to the uploader.',
      '2. Add tests',
      '2. Key Technical Concepts:',
      body(3000),
      '3. Pending Tasks:',
      '   - write the retry test',
    ].join('\n');
    const r = fitSummary(text, 500);
    expect(r.text.length).toBeLessThanOrEqual(500);
    expect(r.text).toContain('2. Add tests');
    expect(r.text).toMatch(/^2\. Key Technical Concepts: \(\d+ characters left out here\)$/m);
    expect(r.text).toContain('- write the retry test');
  });
});
