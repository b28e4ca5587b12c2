import { describe, expect, it } from 'vitest';
import { importedSession } from '../helpers/imported-session.js';

/** The sections a briefing has, by their names: every `##` or `###` heading of it is one of them. */
const sections =
  /^(## (Session Resume Context|Recap of a Finished Workflow)|### (Warnings|Goal|Plan Status|Already Done|Last State|Before the Compaction|Key Decisions Made|Errors Encountered|Git State|TDD State|What to Do Next|Unaddressed Reviewer Feedback))\b/;

/**
 * Real sessions whose agent ended on a message in markdown sections of its own (`## What's Included`, `### 🎯 Key
 * Sections`): quoted in the Last State, they read as sections of the briefing, beside its What to Do Next.
 */
const sessions = [
  ['claude-code/codemie-code-2/session-196820da.jsonl', '###### 📋 Complete Specification'],
  [
    'claude-code/codemie-code/session-3fe1b6bc.jsonl',
    '##### **Final Summary: Codex Metrics Plugin Tech Spec**',
  ],
] as const;

describe("the agent's own headings in the Last State", () => {
  it.each(sessions)(
    '%s: nest under it, the briefing keeping its own sections',
    async (transcript, nested) => {
      const { service, client, repo } = await importedSession(transcript);
      for (const budget of [1500, 4000]) {
        const c = await client.context({ cwd: repo }, budget);
        const where = `at ${budget}:\n${c.markdown}`;
        const headings = c.markdown.split('\n').filter((l) => /^#{1,3}(\s|$)/.test(l));
        expect(
          headings.filter((h) => !sections.test(h)),
          where,
        ).toEqual([]);
        expect(c.markdown, where).toContain(`\n${nested}\n`);
      }
      await service.store.close();
    },
  );
});
