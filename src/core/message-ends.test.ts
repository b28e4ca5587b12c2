import { describe, expect, it } from 'vitest';
import { endsAnnouncing, endsOnHandoff, endsOnOffer, endsOnQuestion, endsWaitingOn } from './message-ends.js';

describe('a message that ends on a question to the user', () => {
  it('asks on its last line, or introduces the options it ends on with a question', () => {
    expect(endsOnQuestion('Tests pass.\n\nShould I push the branch, or keep it local for now?')).toBe(true);
    expect(endsOnQuestion('Done.\n\n**Which option do you prefer?**')).toBe(true);
    expect(endsOnQuestion('Two ways:\n\nWhich do you want?\n\n- **A**: a flag\n- **B**: a config key')).toBe(
      true,
    );
    expect(endsOnQuestion('Next steps:\n1. Merge now?\n2. Wait for review?')).toBe(true);
  });

  it('is no question when the message answers it, or the "?" is in code or a summary list', () => {
    expect(endsOnQuestion('Root cause?\nThe cache was stale. Fixed and pushed.')).toBe(false);
    expect(endsOnQuestion('Added the query:\n\n```sql\nSELECT * FROM t WHERE id = ?\n```')).toBe(false);
    expect(endsOnQuestion('Summary:\n- Why did it fail? a stale cache\n- fixed in a1b2c3d')).toBe(false);
    expect(endsOnQuestion('Let me know if you want me to push it.')).toBe(false);
  });
});

describe('a message that ends announcing what the agent does next', () => {
  it('is cut before the agent did it: "Let me ...", "Now I\'ll ..."', () => {
    expect(endsAnnouncing('Pushed as `6309664`.\n\nLet me watch the deploy.')).toBe(true);
    expect(endsAnnouncing('The lint passes. Now I\u2019ll run the tests:')).toBe(true);
    expect(endsAnnouncing('Found it. Next, let me check the migration.')).toBe(true);
  });

  it('is no announcement when it closes the turn: an offer, a wait, a question, a summary', () => {
    expect(endsAnnouncing('Done. Let me know if you want me to push it.')).toBe(false);
    expect(endsAnnouncing("I'll wait for your go-ahead before merging.")).toBe(false);
    expect(endsAnnouncing('Should I let me... no. Shall I push it?')).toBe(false);
    expect(endsAnnouncing("Next, I'll add the tests once you confirm the API shape.")).toBe(false);
    expect(endsAnnouncing('All done. Let me be clear: nothing was pushed.')).toBe(false);
    expect(endsAnnouncing("First, let's make sure you have Node 20 installed.")).toBe(false);
    expect(endsAnnouncing('Let me summarise:\n\n```\nok\n```\nAll 12 tests pass.')).toBe(false);
  });
});

describe('endsOnOffer', () => {
  it('is an offer of more once the answer is given, not a question the work waits on', () => {
    for (const offer of [
      'It reads the config once at start. Want me to add a reload?',
      'Done.\n\nWould you like me to push the branch?',
      'Tests pass. Should I also update the README?',
      'Pushed as `6309664`.\n\n**Shall I open the PR?**',
    ])
      expect(endsOnOffer(offer), offer).toBe(true);
    for (const question of [
      'Before I write it: should power() take negative exponents?',
      'Before I write it: should I support negative exponents?',
      'Should I use Postgres or SQLite?',
      'Should I also update the README?',
      'Which database do you use in production?',
      'Do you want it in TypeScript or JavaScript?',
      'I found two approaches. Would you like me to use A or B?',
    ])
      expect(endsOnOffer(question), question).toBe(false);
  });
});

describe('endsOnHandoff', () => {
  it("hands the next step to the user's answer without a question mark, as real sessions say it", () => {
    for (const handoff of [
      "Design is written up. Reply 'approve' and I'll go on to the Plan step.",
      'Tests pass. Let me know when you want me to push.',
      'PR #233 is green. Waiting for your go-ahead before I merge.',
      "The build is ready. Say the word and I'll deploy.",
      "`next` reports **T-002**. Say the word and I'll pull it up.",
      "Once you confirm, I'll run the migration.",
      "Committed as `2ac8c00`. Ready to push or create a PR when you're ready.",
      '| 6 | Add auto-update | desktop |\n\n---\n\nReply with a number to view details, or `q` to exit.',
      'Paste the Analytics screenshots when ready, and I\u2019ll turn this into a presenter script.',
      "I'll wait for your go-ahead before merging.",
      '현재 **Design 게이트에서 사용자 승인 대기 중**입니다. "승인"이라고 답변해주시면 Plan 단계로 진행합니다.',
      "'승인'이라고 답해 주시면 Plan 단계로 넘어가겠습니다",
      '**다음 단계**: 수정된 설계안에 대한 승인이 필요합니다. 승인 후 Plan → Implement로 진행합니다.',
      "Let me know if this looks good and I'll start implementing.",
      'Awaiting approval before implementing.',
      // a question that asks leave to go on with the work itself, after files were written
      'Wrote the plan to docs/plan.md. Ready to proceed with implementation?',
      'The schema and migration are in place. Shall I start implementing the handlers?',
      'Converted 4 of 9 files. Should I continue with the remaining five?',
      'Plan above. Proceed?',
      'The migration plan is in docs/migrate.md. Should I go ahead with it?',
      'Phase 1 is committed. Shall I move on to phase 2?',
      '**Want me to go ahead with phase 2?**',
      '설계 문서를 작성했습니다. 구현을 진행할까요?',
    ])
      expect(endsOnHandoff(handoff), handoff).toBe(true);
  });

  it('is no handoff when finished work closes on an optional extra, a report or a question', () => {
    for (const closing of [
      'Done. If you want, I can also add a reload.',
      "Nothing else is touched. Let me know if you'd like me to open a PR for this.",
      'Pushed. Happy to add tests if you want.',
      'All done. Feel free to ask for changes.',
      'Type checking passes.',
      'Confirmed: the cache was stale, and the fix is pushed.',
      'Answer: the cache was stale.',
      'PR created: https://github.com/entireio/cli/pull/61',
      "Watching the run in the background — I'll report when it finishes.",
      'Tests pass. Want me to push it?',
      '필요하시면 말씀해 주시면 추가하겠습니다.',
      "Say the word and I'll deploy.\n\n```\nnpm run build\n```\nThe build is in dist/.",
      // courtesy closings and offers after finished work, in Korean and English
      '작업을 모두 완료했습니다. 확인해 주시면 감사하겠습니다.',
      '모든 작업이 끝났습니다. 추가로 필요한 사항을 알려주시면 도와드리겠습니다.',
      '배포했습니다. 문제가 있으면 알려 주시면 확인하겠습니다.',
      '승인 후 머지된 PR은 3개입니다.',
      "Pushed the fix. Once you've reviewed it, you can merge.",
      'Everything is done. Let me know when you want to pick up the next ticket.',
      "Tell me what you'd like to work on next.",
      'Merged the PR with your approval from earlier.',
      'Confirm the deploy looks right on staging.',
      'Done and pushed. Shall I add tests for it?',
      'All three tasks are done. Want me to move on to the next ticket?',
      // offers of more after finished work, with a verb of going on (from review)
      'All tests pass. Should I go ahead and create a PR?',
      'Done. Would you like me to go ahead and commit these changes?',
      'Fixed the bug and pushed. Want me to start on the docs update too?',
      'Everything is merged. Do you want me to move on to the cleanup?',
      'All done. Shall I start a new branch for the follow-up?',
      'Start the dev server with `npm run dev`. Does it look right?',
      'Done. Want me to continue with the cleanup as well?',
    ])
      expect(endsOnHandoff(closing), closing).toBe(false);
  });
});

describe('endsWaitingOn', () => {
  it('waits on a CI run, a build, a deploy or a review before a step of its own, as real sessions say it', () => {
    for (const wait of [
      'PR #234 CI 완료 대기 중. 통과하면 머지하고 release-loop을 아카이브합니다.',
      '나머지 CI(test, CodeQL)는 진행 중입니다.\n\nCI가 완료되면 머지 게이트를 진행합니다.',
      "Pushed. Waiting for CI on PR #234; once it passes I'll merge it.",
      "I'll merge once the checks are green.",
      'Once the build finishes I will tag v1.4.0.',
      "Watching the run in the background — I'll report when it finishes.",
      'The deploy is rolling out.\n\nWaiting for the deployment to finish before I run the smoke test.',
    ])
      expect(endsWaitingOn(wait), wait).toBe(true);
  });

  it("is no wait when the step after it is the user's, the wait is over, or the wait is a plan further up", () => {
    for (const closing of [
      'PR opened. Once CI passes, you can merge it.',
      'CI passed on all 12 checks and the PR is merged.',
      'Done. The tests pass.',
      'Waiting for CI showed the lint failure, which I fixed.\n\nEverything is merged now.',
      "I'll wait for your go-ahead before merging.",
      'Tests pass. Want me to push it?',
      "Once it passes I'll merge.\n\n```\ngh pr checks 12\n```\n\nAll checks passed and it is merged.",
      // a wait that is over, or a step that is not the agent's
      'While waiting for the build, I also updated the docs. All done.',
      'Fixed the flaky test. Waiting for CI was the slow part: it took 20 minutes.',
      "Added a `wait for checks` job. It's green.",
      "The deploy now runs when the build succeeds, and I'll keep that behaviour.",
      "I'll check the logs once the deploy finishes if you want.",
      '배포 완료. 리뷰 대기 중인 PR은 없습니다.',
      'CI가 통과하면 봇이 자동으로 머지합니다.',
    ])
      expect(endsWaitingOn(closing), closing).toBe(false);
  });
});
