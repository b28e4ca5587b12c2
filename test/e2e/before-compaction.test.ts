import { describe, expect, it } from 'vitest';
import { importedSession } from '../helpers/imported-session.js';

/** A Claude Code session that compacted, then refactored, committed, pushed and opened a pull request. */
const COMPACTED = 'claude-code/entire-cli/e5/8c50537669/0/full.jsonl';

describe('a session that went on after its context was compacted', () => {
  it("briefs the next session with the compaction summary below the agent's last message, the first part a smaller budget drops", async () => {
    const { service, client, repo } = await importedSession(COMPACTED, 'claude-code', 'pty');
    const roomy = await client.context({ cwd: repo }, 4000);
    expect(roomy.over_budget).toBe(false);
    const md = roomy.markdown;
    // the Last State is the newer message; the summary after it holds what only it says (the ACCESSIBLE=1 finding)
    expect(md).toMatch(
      /### Last State \(the agent's last message, [^)]+\)\nPR created: https:\/\/github.com\/entireio\/cli\/pull\/58\n/,
    );
    expect(md).toMatch(
      /### Before the Compaction \(the agent's summary of the session then, [^;]+; the sections above are newer\)\n/,
    );
    expect(md.indexOf('### Before the Compaction')).toBeGreaterThan(md.indexOf('### Last State'));
    expect(md).toContain('`ACCESSIBLE=1` environment variable makes huh read from stdin');
    expect(md).not.toContain('This session is being continued');
    // the summary, not the analysis Claude Code wrote before it
    expect(md).toMatch(/### Before the Compaction [^\n]*\n1\. Primary Request and Intent:\n/);
    expect(md).not.toContain('Let me chronologically analyze');
    // shorter with less room, and gone before anything else
    const some = await client.context({ cwd: repo }, 800);
    expect(some.over_budget).toBe(false);
    const part = (m: string) => m.split('### Before the Compaction')[1]?.split('\n### ')[0] ?? '';
    expect(part(some.markdown).length).toBeLessThan(part(md).length);
    const tight = await client.context({ cwd: repo }, 400);
    expect(tight.over_budget).toBe(false);
    expect(tight.markdown).not.toContain('### Before the Compaction');
    expect(tight.markdown).toContain('commit de5656b');
    await service.store.close();
  });

  it("keeps what was asked, the user's words and what went wrong, not the code nor what was in progress then", async () => {
    const { service, client, repo } = await importedSession(COMPACTED, 'claude-code', 'pty');
    const part = (m: string) => m.split('### Before the Compaction')[1]?.split('\n### ')[0] ?? '';
    for (const budget of [1500, 4000]) {
      const c = await client.context({ cwd: repo }, budget);
      const where = `at ${budget}:\n${c.markdown}`;
      expect(c.over_budget, where).toBe(false);
      // the task list is done and the pull request open: nothing of the summary reads as the state of things
      expect(c.markdown, where).toContain('5/5 tasks done');
      const before = part(c.markdown);
      expect(before, where).not.toMatch(/In progress|Current Work:\n|Optional Next Step:\n/);
      // the goal the session began on, which only the user's messages before the compaction say, before the code
      expect(before, where).toContain(
        '6. All user messages:\n   - "TestResume_LocalLogNewerTimestamp <- I think',
      );
      expect(before, where).not.toContain('```go');
      expect(before, where).toMatch(/3\. Files and Code Sections[^\n]*: \(\d+ characters left out here\)/);
      if (budget === 4000) expect(before, where).toContain('4. Errors and fixes:\n   - **PTY output capture');
    }
    await service.store.close();
  });
});
