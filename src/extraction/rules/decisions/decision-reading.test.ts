import { describe, expect, it } from 'vitest';
import { entry } from '../../../../test/helpers/tool-results.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { isDecision } from './decision-phrasing.js';
import { typeAfterCause } from './decision-types.js';
import { isRemedy, remedyInSentence } from './decision-remedies.js';
import { RulesExtractor } from '../rules-extractor.js';

/** Every sentence below is quoted from a real session of the corpus (typographic quotes kept where they were). */

const rules = new RulesExtractor();
const said = (t: string) => entry('assistant', 'text', t);
const thought = (t: string) => entry('assistant', 'thinking', t);
const user = (t: string) => entry('user', 'text', t);
let edits = 0;
const edit = (path: string) => ({
  ...entry('assistant', 'tool_call', `Edit: ${path}`),
  tool: { id: `e${(edits += 1)}`, name: 'Edit', input: { file_path: path }, is_error: null, exit_code: null },
});
const found = async (entries: TranscriptEntry[]) =>
  (await rules.extract({ entries })).decisions.map((d) => ({
    line: d.evidence_line,
    type: d.decision_type,
    description: d.description,
    rationale: d.rationale,
  }));

describe('decisions: a change stated after the cause it answers', () => {
  it('reads the change that follows a diagnosis, with the diagnosis as its reason', async () => {
    const bounded = said(
      'The issue is that with `ShutdownTimeout: 100ms`, the `Close()` is waiting for the batch to be sent, but the HTTP request itself has a 10s timeout by default. Let me try setting the HTTP transport timeout as well:',
    );
    const silenced = said(
      "There's `BatchUploadTimeout` (defaults to 10 seconds!) - that's likely the issue. Let me set aggressive timeouts and a no-op logger to silence warnings:",
    );
    const formatted = said(
      'There are no actionable review threads: Greptile rated the change safe to merge, and CodeRabbit was rate-limited rather than leaving feedback. The failing CI jobs all share one root cause: `pkl/builtins/no_commit_to_branch.pkl` is not in canonical Pkl format. I’ll apply the repository-prescribed formatter, rerun the focused tests and lint/build checks, then commit and push the formatting fix.',
    );
    const ignored = thought(
      'The diagnostics are showing compiler errors in hooks.go - those are likely because the IDE is not recognizing the integration test build tag. Let me ignore those and continue with updating the tests.',
    );
    const grounded = said(
      'I couldn’t directly inspect your already-open Chrome tab: the browser tool only sees the Codex in-app browser, and both local/deployed Codemie URLs were blocked by the browser policy. I did inspect the local Codemie UI source to ground the scenario in actual screens/capabilities.',
    );
    const decisions = await found([bounded, silenced, formatted, ignored, grounded]);
    expect(decisions.map((d) => [d.line, d.description])).toEqual([
      [bounded.line, 'Let me try setting the HTTP transport timeout as well:'],
      [silenced.line, 'Let me set aggressive timeouts and a no-op logger to silence warnings:'],
      [
        formatted.line,
        "I'll apply the repository-prescribed formatter, rerun the focused tests and lint/build checks, then commit and push the formatting fix.",
      ],
      [ignored.line, 'Let me ignore those and continue with updating the tests.'],
      // "inspect ... to ground" is a look: "ground" was a verb of doing fitted to this one session
    ]);
    expect(decisions[1]?.rationale).toBe(
      "There's `BatchUploadTimeout` (defaults to 10 seconds!) - that's likely the issue",
    );
    expect(decisions[3]?.type).toBe('skip');
  });

  it('reads the cause and the change in one sentence ("... caught one issue ... so I’ve applied ...")', () => {
    expect(
      remedyInSentence(
        "The repository's slow lint profile then caught one issue in the original PR code—a collapsible nested `if`—so I've applied Clippy's equivalent let-chain form.",
      ),
    ).toBe(
      "The repository's slow lint profile then caught one issue in the original PR code—a collapsible nested `if`",
    );
    expect(
      remedyInSentence(
        "The root cause is the stale lockfile, so I'm rerunning the complete lint pipeline now.",
      ),
    ).toBeNull();
  });

  it('a look, a bare "fix it", a fragment or a step without a cause is not a decision', async () => {
    expect(
      isRemedy('Let me check what `machineid.ProtectedID` does - that runs synchronously before PostHog:'),
    ).toBe(false);
    expect(isRemedy('Let me fix that.')).toBe(false);
    expect(isRemedy('Claude Code keeps running, user keeps working, but we need to:')).toBe(false);
    expect(isRemedy("I'm rerunning the complete lint pipeline now.")).toBe(false);
    const entries = [
      said(
        "The timeout is working, but there's still ~800ms delay and those warning logs are noisy. The issue is that PostHog is taking too long to even *start* the request. Let me look at what happens during `Close()` more carefully.",
      ),
      // no cause named before it: an ordinary step
      said('Now let me add the `RunCommandInteractive` helper to testenv.go.'),
      said('Found it! Let me fix it.'),
    ];
    expect(await found(entries)).toEqual([]);
  });

  it('a message that states its own choice keeps that one, not the change after a cause as well', async () => {
    const sandbox = said(
      "The issue is that the sandbox checkout is per-process but the LiveView runs in a separate process. For LiveView tests we need to use `Ecto.Adapters.SQL.Sandbox.mode(Repo, :auto)` or set up allowances. I'll go with setting the sandbox to auto mode since these tests are already marked as non-async.",
    );
    expect((await found([sandbox])).map((d) => d.description)).toEqual([
      "I'll go with setting the sandbox to auto mode since these tests are already marked as non-async.",
    ]);
  });
});

describe('decisions: sentences ending in a colon, stated fixes and ways', () => {
  it('a whole clause before the colon states the choice; a clause that stops short or only judges does not', () => {
    for (const yes of [
      'The fix is to set a timeout in the config:',
      "Let me also suppress those warnings since they're expected for a CLI:",
      "Since it calls `Tmux.launch_project_review` which requires a real tmux, I'll test that it mints a token and attempts the launch (the flash message will indicate success/failure):",
    ])
      expect(isDecision(yes), yes).toBe(true);
    for (const no of [
      'The best approach is to:',
      'Actually, I think the solution is simpler than I thought:',
      'Now the solution is much cleaner:',
      'Let me verify the approach is correct:',
      "Here's what I'll add:",
    ])
      expect(isDecision(no), no).toBe(false);
  });

  it('"the <qualified> approach for X is" is a stated choice; "the fix is committed" is a status', () => {
    expect(
      isDecision(
        "Now I understand the structure. The lightest-weight approach for Go is to use Go's built-in `runtime/trace` package, which produces traces viewable with `go tool trace`.",
      ),
    ).toBe(true);
    expect(isDecision('The fix is committed and pushed as `55c7b81`.')).toBe(false);
    expect(
      isDecision('The fix is working - down from ~800ms to ~135ms consistently after the first run.'),
    ).toBe(false);
    expect(
      isDecision('The current design is one tracking file per session, written by the metrics processor.'),
    ).toBe(false);
    expect(
      isDecision(
        'The practical trade-off matters here: incorrectly mixing sessions seems worse than missing some sessions entirely.',
      ),
    ).toBe(false);
  });

  it('a reason given as the policy it follows: "(per this repository’s policy)"', async () => {
    const pr = said(
      'The fix is committed and pushed as `55c7b81`. I’m opening the PR as ready for review (per this repository’s policy), then I’ll post a concise response to the discussion linking it.',
    );
    const [decision] = await found([pr]);
    expect(decision?.description).toMatch(/^I'm opening the PR as ready for review/);
    expect(decision?.rationale).toMatch(/^per this repository's policy/);
    expect(isDecision('Let me open the file to see the config.')).toBe(false);
  });
});

describe('decisions: how Codex states what it is doing', () => {
  it('"I’m <doing>ing ... so ..." and "Selected X are ..." state choices; "I’m <looking>ing" does not', () => {
    expect(
      isDecision(
        "I'm tightening the Rust test as well so it no longer depends on—or silently ignores failures from—the agent's own checkout.",
      ),
    ).toBe(true);
    expect(
      isDecision(
        'Selected lanes are correctness + adversarial (recursive/state-machine paths), migration + resilience (schema/replay/rollback/fail-open budget), and tests + requirements + standards/API.',
      ),
    ).toBe(true);
    for (const no of [
      "I'm continuing through the full matrix so the handoff reflects the actual final PR state rather than an early green subset.",
      "I'm validating the exit-code distinction so the proposed fix won't hide genuine Git/repository errors.",
      'I’m using the GitHub workflow to inspect the discussion and then trace the relevant behavior in this checkout.',
      'The user selected "p" which means Party Mode - getting multi-agent feedback on the spec.',
    ])
      expect(isDecision(no.replace(/’/g, "'")), no).toBe(false);
  });
});

describe('decisions: the type of a change made because of its cause', () => {
  it('a limitation of the tools makes it a workaround; a bug’s cause leaves it to the words', () => {
    expect(
      typeAfterCause(
        "The auto-generated migration uses `ALTER TABLE ... modify` which SQLite doesn't support.",
        'I need to rewrite it with a SQLite-safe table rewrite pattern.',
      ),
    ).toBe('workaround');
    expect(
      typeAfterCause(
        "I couldn't directly inspect your already-open Chrome tab: the browser tool only sees the Codex in-app browser, and both local/deployed Codemie URLs were blocked by the browser policy.",
        'I did inspect the local Codemie UI source to ground the scenario in actual screens/capabilities.',
      ),
    ).toBe('workaround');
    expect(
      typeAfterCause(
        "There's `BatchUploadTimeout` (defaults to 10 seconds!) - that's likely the issue",
        'Let me set aggressive timeouts and a no-op logger to silence warnings:',
      ),
    ).toBe('approach');
  });
});

describe('decisions: headings that name the chosen solution', () => {
  it('one per message; numbered alternatives and plan topics are not choices', async () => {
    const revised = said(
      "You're absolutely right! My solution has a critical flaw.\n\n## Revised Approach: Process-Level Correlation\n\nWe need to distinguish between tabs.\n\n### Solution: Environment Variable Injection\n\n...",
    );
    const plan = said(
      '## Final Implementation Plan: Extend Existing HistoryParser\n\n### Current State Analysis',
    );
    const options = said(
      "## Possible Approaches\n\n### Approach 1: Don't Solve It (Conservative)\n\n### Approach 5: Hybrid (Recommended)\n\n## Recommended Design: Approach 5 (Hybrid)\n\n## Implementation Plan: Session Transition Detection",
    );
    expect((await found([revised, plan, options])).map((d) => [d.line, d.type, d.description])).toEqual([
      [revised.line, 'approach', 'Revised Approach: Process-Level Correlation'],
      [plan.line, 'approach', 'Final Implementation Plan: Extend Existing HistoryParser'],
    ]);
    const lock = said(
      "Claude session files don't expose parent environment variables, so we can't use that approach. Let me propose a better solution:\n\n---\n\n## Revised Solution: Process Lock File Approach",
    );
    expect(await found([lock])).toMatchObject([
      {
        description: 'Revised Solution: Process Lock File Approach',
        rationale:
          "Claude session files don't expose parent environment variables, so we can't use that approach",
      },
    ]);
    const architecture = said('## Revised Architecture: Session Lifecycle Transitions');
    expect((await found([architecture]))[0]?.type).toBe('architecture');
  });
});

describe('decisions: a correction the user gives and the agent accepts', () => {
  it('is evidenced where the agent accepts it, in the user’s words, with the agent’s reason', async () => {
    const proposal = said('### Proposed Changes\n\nAlways re-sync conversations; the API deduplicates.');
    const correction = user(
      "it's bad idea, since entire converation will be proceed every time. performance is crucial. there is a need to track latest synced message id, so that next sync cycle can find delta.",
    );
    const thinking = thought(
      'The user is absolutely right. Re-syncing the entire conversation every time is a bad idea for performance.',
    );
    const reply = said(
      "You're absolutely right. Re-syncing entire conversations every time is terrible for performance. Let me design a proper message-level incremental tracking solution.",
    );
    expect(await found([proposal, correction, thinking, reply])).toEqual([
      {
        line: reply.line,
        type: 'approach',
        description: correction.text,
        rationale: 'Re-syncing entire conversations every time is terrible for performance.',
      },
    ]);
  });

  it('"This makes sense" early in the reply accepts too', async () => {
    const entries = [
      said('I created `UNIFIED-TRACKING-DESIGN.md`.'),
      user(
        "track it in the same file as metrics were originally tracked, just extend json so that new clients will have this capaiblity, old won't be broken",
      ),
      thought(
        "The user wants to track conversation sync metadata in the same metrics file that's already being used for tracking metrics deltas. This makes sense - it's a unified tracking approach where each session has one tracking file.",
      ),
    ];
    expect((await found(entries)).map((d) => d.line)).toEqual([entries[2]?.line]);
  });

  it('a question that challenges the course, accepted, is a correction too', async () => {
    const entries = [
      said('The SyncState gains `conversationSyncFailures` and `lastConversationSyncError`.'),
      user('there are no tracking of failures for metrics. does it make sense to have it combined '),
      said(
        "You're absolutely right! That's inconsistent. If metrics processor doesn't track failures in `SyncState`, neither should conversations processor.\n\n## Remove Failure Tracking Fields",
      ),
    ];
    expect((await found(entries)).map((d) => [d.line, d.description])).toEqual([
      [entries[2]?.line, entries[1]?.text.trim()],
    ]);
  });

  it('a fact, a question, a reply that does not accept, or a turn whose reply already decides gives no second decision', async () => {
    const entries = [
      said('I extended the JSONL file with a new record type.'),
      // a fact: what follows from it is the agent's to state
      user("ir's not jsonl file. it's json file with strcuture and there is syncState there"),
      said("You're absolutely right! Let me check the actual structure."),
      edit('/repo/docs/ARCHITECTURE.md'),
      user('what about edge cases and error handling?'),
      said('Excellent point! Let me add comprehensive edge case handling and error recovery to the design:'),
      user('no, it is fine as it is, go on'),
      said('Continuing with the tests.'),
      // a failure report asks for a fix, not a course
      user('no, the hook still fails after your change, it is broken'),
      said("You're right, the hook still exits 1. Let me look at the output."),
      // the user's directive is already a decision: the acceptance adds none
      user(
        "don't create separate documents. put into existing with converation incremental. it's just separate phase1",
      ),
      said("You're right! Let me integrate this into the existing ARCHITECTURE-REFACTORING.md as Phase 1."),
    ];
    expect((await found(entries)).map((d) => [d.line, d.description])).toEqual([
      [entries[10]?.line, entries[10]?.text],
    ]);
  });

  it('a later heading in the same turn names the solution the correction led to: one decision, there', async () => {
    const entries = [
      said('## Revised Solution Design\n\nA global registry of claimed files.'),
      user(
        'analyze history.jsonl, it must be the source. /clear command present there with timestamp and session id',
      ),
      said('Brilliant insight! Let me analyze the `history.jsonl` file structure.'),
      edit('/repo/notes.md'),
      said("## Solution: Parse Claude's `history.jsonl` (Deterministic)\n\n### Key Discovery"),
    ];
    expect((await found(entries)).map((d) => [d.line, d.description])).toEqual([
      [entries[4]?.line, "Solution: Parse Claude's `history.jsonl` (Deterministic)"],
    ]);
  });
});

describe('decisions: a choice said twice in one turn is one decision', () => {
  it('thinking and the text that restates it, or the same qualified approach twice; not across a user turn', async () => {
    const thinking = thought(
      'Good point - testenv.go is already 1123 lines. Adding more code there would make it unwieldy. Let me create a new file specifically for interactive testing helpers.',
    );
    const text = said(
      'Good point - testenv.go is already quite large. Let me create a dedicated file for the interactive pty helpers:',
    );
    const first = said(
      "Now I understand the structure. The lightest-weight approach for Go is to use Go's built-in `runtime/trace` package, which produces traces viewable with `go tool trace`.",
    );
    const again = said(
      "Now I have a clear picture. The lightest-weight approach is to add Go's built-in `runtime/trace` support, enabled via an environment variable.",
    );
    const next = user(
      'Hm, ok, nothing obvious in the trace. Could it be a timeout failing to reach Posthog?',
    );
    const later = said(
      "Now I have a clear picture. The lightest-weight approach is to add Go's built-in `runtime/trace` support, enabled via an environment variable.",
    );
    expect((await found([thinking, text, first, again, next, later])).map((d) => d.line)).toEqual([
      thinking.line,
      first.line,
      later.line,
    ]);
  });
});

describe('decisions: a choice stated in Korean', () => {
  it('a reason or an alternative and an ending of intent: a decision, typed by its words', async () => {
    const inline = said(
      '변경 범위가 좁고 명확하므로 Plan은 간결하게 작성하고 바로 Implement로 넘어가겠습니다.',
    );
    const leave = said(
      '`_FakeMCP` 클래스명은 LOW이고 기능 영향 없으므로 그대로 둡니다 (테스트 헬퍼의 이름 변경은 불필요한 diff 확대).\n\n최종 변경 확인:',
    );
    const separate = said('main 브랜치 보호 규칙 때문에 직접 push 불가. retro 커밋을 별도 PR로 올립니다.');
    const decisions = await found([inline, leave, separate]);
    expect(decisions.map((d) => [d.line, d.type])).toEqual([
      [inline.line, 'approach'],
      [leave.line, 'skip'],
      [separate.line, 'workaround'],
    ]);
    expect(decisions[0]?.rationale).toBe('변경 범위가 좁고 명확하므로');
  });

  it('a description (copula, stative ending) or a step without a reason is not', async () => {
    const entries = [
      said(
        'CI 완료를 기다리고 있습니다. type-check 통과가 이미 확인되었으므로 나머지 체크도 통과할 가능성이 높습니다.',
      ),
      said(
        '이 프로젝트에서 `get_context()`나 `mcp.types`는 미사용이므로 **import 경로 + 클래스명 변경**이 전부입니다.',
      ),
      said('사용자가 자리를 비운 것 같습니다. Design 게이트에서 대기 상태를 기록하겠습니다.'),
    ];
    expect(await found(entries)).toEqual([]);
  });
});

describe('decisions: choices stated as changes made, labelled fixes and a plan filling a gap', () => {
  const lines = async (...texts: string[]) =>
    (await found(texts.map((t) => said(t)))).map((d) => d.description);

  it('reads a fix or solution given under its label when it is the one taken', async () => {
    expect(await lines('Fix (applied): route `job.cancelled` to `Idle`.')).toHaveLength(1);
    expect(
      await lines(
        'Solution: make the importer prefer the cached manifest and fall back to a fresh download only when it is missing.',
      ),
    ).toHaveLength(1);
    expect(
      await lines(
        'Root cause: the fixture reused one temp directory across workers. The fix: each worker now creates its own directory, so runs never collide.',
      ),
    ).toEqual(['The fix: each worker now creates its own directory, so runs never collide.']);
  });

  it('leaves proposals under a label alone: options, a plan spelled out below, one set aside', async () => {
    expect(await lines('Solution: Move the retry into the client or make the queue retry-aware')).toEqual([]);
    expect(await lines('Solution: Add a `retries` field to `JobState`:')).toEqual([]);
    expect(
      await lines('Alternative (not applied): drop the `job.cancelled` event entirely, since ...'),
    ).toEqual([]);
  });

  it('reads a change summarised with the alternative it replaced', async () => {
    expect(
      await lines('`parser.rs`: replaced the hand-written tokenizer with a `nom` grammar.'),
    ).toHaveLength(1);
    expect(
      await lines('The sidebar is now a CSS grid instead of nested flex boxes, so long titles wrap cleanly.'),
    ).toHaveLength(1);
    expect(
      await lines(
        'Stopped polling the status endpoint on every render (that flooded the API). Instead the status arrives over the existing websocket.',
      ),
    ).toEqual(['Instead the status arrives over the existing websocket.']);
  });

  it('leaves a bare summary, a look set against another and a step with "now ... instead" alone', async () => {
    expect(await lines('Reverted the sidebar to the flex version so the titles line up again.')).toEqual([]);
    expect(await lines('The sidebar now wraps long titles.')).toEqual([]);
    expect(
      await lines('The remaining call sites are now being checked against the schema rather than skipped.'),
    ).toEqual([]);
  });

  it("reads the plan's answer to a gap the sentence before names, or one with its reason", async () => {
    expect(
      await lines(
        'The spec never says where the tenant comes from. The plan takes it from the API key’s owner.',
      ),
    ).toHaveLength(1);
    expect(
      await lines('The plan stores the tokens hashed with Argon2 so that a leaked table is of no use.'),
    ).toHaveLength(1);
    expect(await lines('The spec lists four endpoints. The plan covers all of them in two phases.')).toEqual(
      [],
    );
  });

  it('a summary that restates a choice stated earlier on the same code is one decision', async () => {
    const earlier = said('I’ll make `cache warm` skip the network check since it only reads local files.');
    const asked = user('ok, open a PR for that');
    const summary = said(
      'Done: `cache warm` now reads local files only instead of probing the network first.',
    );
    expect((await found([earlier, asked, summary])).map((d) => d.line)).toEqual([earlier.line]);
  });
});

describe('decisions: choices stated without "I\'ll"', () => {
  const lines = async (text: string) => (await found([thought(text)])).map((d) => d.description);

  it('reads a present action with a sign of choice, a settled compromise and a past choice', async () => {
    expect(
      await lines('I’m settling on a middle ground: keep the sync API and add an async twin.'),
    ).toHaveLength(1);
    expect(
      await lines('Moving the parsing into its own module so it can be fuzzed on its own.'),
    ).toHaveLength(1);
    expect(
      await lines('I kept the config format deliberately flat since only two tools read it.'),
    ).toHaveLength(1);
  });

  it('reads a skip or an order with the way set aside, and a choice after its reason', async () => {
    expect(await lines('Skip the legacy exporters for now since nothing calls them any more.')).toHaveLength(
      1,
    );
    expect(await lines('Pin the base image by its digest instead of the `latest` tag.')).toHaveLength(1);
    expect(
      await lines('Both crates work, but only `rustls` builds without OpenSSL here, so I’ll use that.'),
    ).toHaveLength(1);
  });

  it('leaves steps alone: a purpose of checking, a step after "so", a choice weighed then dropped', async () => {
    expect(
      await lines('Let me write the two modules out and build them to make sure everything compiles.'),
    ).toEqual([]);
    expect(await lines('The tests pass now, so I’ll commit.')).toEqual([]);
    expect(await lines('Skipping ahead to the next file.')).toEqual([]);
    const weighed = said(
      'The cleaner solution would be to move the lock into the store. But since I can’t change the store’s API, maybe a wrapper is enough.',
    );
    expect(await found([weighed])).toEqual([]);
  });
});

describe('decisions: a reason after a dash, a semicolon or "so <the outcome>"', () => {
  const lines = async (text: string) => (await found([said(text)])).map((d) => d.rationale);

  it('reads the consequence a choice has as its reason', async () => {
    expect(
      await lines('I’ll keep the parser in the core crate — it lets the CLI and the server share it.'),
    ).toEqual(['it lets the CLI and the server share it']);
    expect(
      await lines('I’m going to split `api.ts` into one file per resource; it has grown past 1,200 lines.'),
    ).toHaveLength(1);
    expect(await lines('Let’s put the retry in the client so existing callers don’t change.')).toHaveLength(
      1,
    );
  });

  it('reads the purpose a choice opens with as its reason', async () => {
    expect(
      await lines('To keep this PR small, I’ll only fix the crash and leave the refactor for later.'),
    ).toEqual(['To keep this PR small']);
  });

  it('leaves a dash or a semicolon that only goes on describing alone', async () => {
    expect(await lines('I’ll keep going with the handlers — it is the same pattern.')).toEqual([]);
    expect(await lines('Let me move on to the router; it has three routes left.')).toEqual([]);
  });
});

describe('decisions: any verb of the agent with a reason, things kept as they are, swaps and recommendations', () => {
  const lines = async (...texts: string[]) => (await found(texts.map(said))).map((d) => d.description);

  it('reads a verb outside the list when the agent names itself and gives a reason', async () => {
    expect(
      await lines('To keep reads cheap, we’ll denormalize the author name onto each post.'),
    ).toHaveLength(1);
    expect(
      await lines('We’ll use keyset pagination; the offset query gets slower with every page.'),
    ).toHaveLength(1);
    expect(await lines('I’ll explain the trade-off since you asked about it.')).toEqual([]);
    expect(await lines('Let me unstage the generated files since they don’t belong in this commit.')).toEqual(
      [],
    );
    expect(
      await lines('I’m using the review workflow for this; the stop condition is a clean report.'),
    ).toEqual([]);
  });

  it('reads what is kept as it is or kept small, with or without the agent named', async () => {
    expect(
      await lines('I’ll leave the old `/v1/export` route in place and only mark it deprecated.'),
    ).toHaveLength(1);
    expect(
      await lines('I’m keeping the change minimal: only the tokenizer moves, the parser stays.'),
    ).toHaveLength(1);
    expect(await lines('Keep it small for now; the retry policy can come later.')).toHaveLength(1);
  });

  it('reads the scope a change is limited to, not the moment it waits for', async () => {
    expect(
      await lines(
        'I’ll update `test.md` with the requested text, verify the exact diff, and commit only that file.',
      ),
    ).toHaveLength(1);
    expect(
      await lines(
        'This suggests we should work incrementally, test thoroughly, and only commit once everything is working.',
      ),
    ).toEqual([]);
    expect(
      await lines(
        'I’ll re-check only the six original findings and the explicitly rejected warning claim against the current source, tests, and documentation.',
      ),
    ).toEqual([]);
  });

  it('reads a named swap, a best way stated without its noun, an order with the way set aside', async () => {
    expect(await lines('I need to change `--prod` to `--omit=dev` in the install step:')).toHaveLength(1);
    expect(await lines('Now I need to update both tests to call `loadConfig` instead.')).toEqual([]);
    expect(await lines('Simplest is to vendor the two helpers and drop the dependency.')).toHaveLength(1);
    expect(await lines('No SSH key on the runner. Use the fixtures from the shared volume instead.')).toEqual(
      ['Use the fixtures from the shared volume instead.'],
    );
    expect(
      await lines(
        'An empty prefix breaks the parser’s assignment handling. Let me rewrite the call with `env`.',
      ),
    ).toEqual(['Let me rewrite the call with `env`.']);
  });

  it('reads a recommendation and an appositive naming the pick, not advice to check', async () => {
    expect(
      await lines('Done.\n\nRecommendation: ship the CSV export first and leave PDF for the next release.'),
    ).toHaveLength(1);
    expect(await lines('Recommendation: test the upgrade on staging before the release.')).toEqual([]);
    expect(await lines('I’ll use `zx`, a sensible pick for scripts this small:')).toHaveLength(1);
  });

  it('reads a summary item with the way it replaced, not a finding that says what happens', async () => {
    expect(
      await lines(
        '**Changed:**\n- **Cache location**: the OS cache folder (e.g. `~/.cache/tool`) instead of `~/.tool/cache`',
      ),
    ).toEqual(['Cache location: the OS cache folder (e.g. `~/.cache/tool`) instead of `~/.tool/cache`']);
    expect(await lines('Impact: a slow disk becomes a stalled queue instead of a logged warning.')).toEqual(
      [],
    );
    // a label that reports a failure says what the code does, not what was chosen
    expect(await lines('The rounding test fails: it truncates instead of rounding half up.')).toEqual([]);
    expect(await lines('The parser errors: it reads tabs as spaces instead of as separators.')).toEqual([]);
    // a label of nouns that happen to be those words is an item still
    for (const item of [
      'Line breaks: LF instead of CRLF in every generated file',
      'Validation errors: collected into one report instead of thrown one by one',
      'Early returns: guard clauses instead of nested ifs',
    ])
      expect(await lines(item)).toHaveLength(1);
  });

  it('reads a user directive asked as a question, naming a helper or setting a convention', async () => {
    const reply = said('Sure.');
    for (const asked of [
      'Could you read the limits from the config file instead of hard-coding them?',
      'when a test needs a clock, use the `fakeClock` helper from the test utils',
      'we use pnpm here, please clean up and use pnpm from now on',
    ])
      expect(await found([user(asked), reply])).toHaveLength(1);
    expect(await found([user('Could you show me the limits?'), reply])).toEqual([]);
  });
});

describe('decisions: a new way tried, a fix by its means, a recommendation, a pick that feels right, a scope', () => {
  const lines = async (...texts: string[]) => (await found(texts.map(said))).map((d) => d.description);

  it('reads a different approach with what it is, not one that only looks', async () => {
    expect(
      await lines('Let me try a different approach - render the badge as a pseudo-element instead:'),
    ).toHaveLength(1);
    expect(await lines('Let me try a simpler approach - just grep the log for "timeout".')).toEqual([]);
    expect(await lines('Let me fix this by pointing the loader at the compiled entry file.')).toHaveLength(1);
  });

  it('reads a recommendation completed by its list, a pick that feels right, the sweet spot', async () => {
    expect(
      await lines(
        '**Recommendation**: build a small **importer service** that:\n1. Reads the feed\n2. Stores rows',
      ),
    ).toHaveLength(1);
    expect(await lines('Recommendation: check the quota before the release.')).toEqual([]);
    expect(
      await lines(
        'Option 2 (the queue table) feels right here — it needs no new service and keeps retries visible.',
      ),
    ).toHaveLength(1);
    expect(await lines('Approach B is probably the sweet spot for a team this size.')).toHaveLength(1);
  });

  it('reads a scope set with "only" and a thing kept lean, not "only need to"', async () => {
    expect(await lines('We should only retry when the server answers 503, never on a 4xx.')).toHaveLength(1);
    expect(await lines('- Keep the event schema lean: two fields and a payload, nothing else.')).toHaveLength(
      1,
    );
    expect(await lines('I’ll only need to touch the parser.')).toEqual([]);
  });

  it('reads the change after the cause the agent sees ("Found it.", "I see the issue", redundant)', async () => {
    expect(
      await lines(
        'Found it. The service worker still caches `app.v1.js`. Let me bump the cache name and drop the old entries on activate.',
      ),
    ).toEqual(['Let me bump the cache name and drop the old entries on activate.']);
    // its reason is what was found, not the words that found it
    const [bump] = await found([
      said(
        'Found it. The service worker still caches `app.v1.js`. Let me bump the cache name and drop the old entries on activate.',
      ),
    ]);
    expect(bump?.rationale).toBe('The service worker still caches `app.v1.js`');
    const [fix] = await found([said('Found it! Let me switch the cache to a versioned key with a TTL.')]);
    expect(fix?.rationale).toBe('');
    expect(
      await lines(
        'The extra `cp dist/assets` step may be redundant. Let me remove it and let the bundler copy the assets.',
      ),
    ).toHaveLength(1);
  });
});

describe('decisions: the user picks an option, sets a convention, goes back, or proposes and is agreed with', () => {
  const reply = (t: string) => said(t);
  const count = async (u: string, r: string) => (await found([said('Done.'), user(u), reply(r)])).length;

  it('reads each as one decision', async () => {
    expect(await count('option 1. one static page, no build step', 'On it.')).toBe(1);
    expect(await count('attrs, not pydantic. we only need plain records here', 'Done.')).toBe(1);
    expect(await count('keep the total as a computed property, not a stored column', 'Done.')).toBe(1);
    expect(await count('that broke the layout, go back to what we had before', 'Reverting now.')).toBe(1);
    expect(await count('no shortcuts, and the fewer files touched the better', 'Understood.')).toBe(1);
    expect(await count('fine. but a few hard requirements:', 'All doable.')).toBe(1);
    expect(
      await count(
        'how about weighting latency at 40% and uptime at 60%?',
        'That’s well reasoned. Uptime matters more to users than a slow page, so it should weigh more.',
      ),
    ).toBe(1);
  });

  it('leaves a question of fact, a proposal not taken up and a plain request alone', async () => {
    expect(await count('how about the tests, do they pass?', 'Yes, all 40 pass.')).toBe(0);
    expect(await count('what about caching the results?', 'I can look into it later.')).toBe(0);
    expect(await count('please add a README', 'Sure.')).toBe(0);
    expect(await count('thanks, not bad.', 'Glad it helps.')).toBe(0);
  });
});

describe('decisions: a design stated as what it should do, a proposal, the smallest change, a deferral', () => {
  const lines = async (...texts: string[]) => (await found(texts.map(said))).map((d) => d.description);

  it('reads each, with the look or the option beside it left alone', async () => {
    expect(
      await lines(
        'The retry handler should send only 429 to the backoff path, rather than retrying every 4xx.',
      ),
    ).toHaveLength(1);
    expect(
      await lines('I should read the scheduler first rather than guessing how jobs are queued.'),
    ).toEqual([]);
    expect(await lines('I’d propose a `MAX_UPLOAD_MB` variable defaulting to 25.')).toHaveLength(1);
    expect(await lines('I’d recommend running the whole suite once more before merging.')).toEqual([]);
    expect(
      await lines('I’m making the smallest change: keep the parser, swap only the tokenizer’s lookahead.'),
    ).toHaveLength(1);
    expect(await lines('Leave the export button for later; the list view comes first.')).toHaveLength(1);
    expect(await lines('I’ll default to SQLite unless you’d rather run Postgres locally.')).toHaveLength(1);
    expect(await lines('So I’ll fix `parseHost` to strip the port from every header it reads.')).toHaveLength(
      1,
    );
  });

  it('leaves a look with the other way named, an option listed, a plan judged sound and housekeeping alone', async () => {
    expect(
      await lines(
        'Since the unit tests pass, I’m running the e2e suite now to see the real error instead of guessing.',
      ),
    ).toEqual([]);
    expect(
      await lines(
        'I can’t reach the registry from here, but there are options:\n\nOption 1: use the cached image.',
      ),
    ).toEqual([]);
    expect(await lines('The branch is right and the plan is sound: a one-file fix with its tests.')).toEqual(
      [],
    );
    expect(
      await lines(
        'Now let me delete the draft notes I wrote earlier in this session, since they are no longer needed.',
      ),
    ).toEqual([]);
    expect(
      await lines('Let me also clean up the temporary scripts and confirm the new approach still holds.'),
    ).toEqual([]);
    expect(
      await lines('Let me run `make codegen` to regenerate the client, which also refreshes the types.'),
    ).toEqual([]);
  });
});

describe('decisions: a recommendation, and what the agent would do', () => {
  const lines = async (...texts: string[]) =>
    (await found(texts.map((t) => said(t)))).map((d) => d.description);
  /** Each sentence alone is read as one decision, itself; or as none. */
  const reads = async (texts: string[]) => {
    for (const t of texts) expect(await lines(t), t).toEqual([t]);
  };
  const ignores = async (texts: string[]) => {
    for (const t of texts) expect(await lines(t), t).toEqual([]);
  };

  it('reads "I would use ...", "I recommend ...", "I suggest we ...", "My recommendation is to ..."', async () => {
    await reads([
      'I would use Postgres rather than SQLite here since several workers write at once.',
      "I'd keep the stages in one process rather than a queue per stage, since the volume is low.",
      'I recommend using Postgres instead of SQLite, since several workers write at once.',
      'I suggest we use Postgres rather than SQLite.',
      'My recommendation is to use Postgres rather than SQLite.',
    ]);
  });

  it('reads an intent, a way judged best without "it is", and a purpose that keeps something from happening', async () => {
    await reads([
      'I plan to use Postgres for the job queue instead of Redis.',
      'I want to keep the old endpoint because existing clients still call it.',
      'Best to move the retry logic into a middleware rather than repeating it in every handler.',
      "Let's store the tokens in an httpOnly cookie so they are not readable from JavaScript.",
    ]);
    await ignores([
      'I want to check the logs first since the error is odd.',
      'I plan to run the full suite because the change touches the parser.',
      'Best to run the tests again since the last run was flaky.',
      'Simpler to implement and test.',
      'We can use Postgres for the job queue instead of Redis.',
    ]);
  });

  it('reads a choice reported done with its reason, and the way set aside before a statement', async () => {
    await reads([
      'Switched the parser to streaming since the files are several GB.',
      'I kept the old endpoint because existing clients still call it.',
      "I didn't add a cache, since the query takes 4 ms.",
      'I left the Windows paths alone for now, since the issue only covers Linux.',
      'I avoided adding a new dependency by parsing the dates by hand.',
      'Rather than mocking S3, the tests now run against MinIO.',
      'Implemented the cache with an LRU map because memory is capped at 50 MB.',
    ]);
    await ignores([
      'Switched to the feature branch because the fix belongs there.',
      'Moved on to the next task since this one is done.',
      'Kept the tests running in the background since they take a while.',
      'I left a comment on the PR because the reviewer asked.',
      "I didn't run the tests since nothing changed.",
      'I kept going with the remaining handlers.',
      'Instead of processing one file, iterate over all the correlated files.',
      'Implemented the cache.',
    ]);
  });

  it('reads a piece of design reported with what it lets others do or keeps true, not a purpose of looking', async () => {
    await reads([
      'Added a `setup()` entry point so users can inject their own store before init.',
      'Extended the cache API with change listeners, so in-memory stores can broadcast updates.',
      'Introduced a `Clock` interface so the scheduler stays testable.',
      'Extracted the retry policy into its own module so each client owns its limits.',
      "I've wrapped the writes in one transaction, so a crash never leaves half a batch.",
      'Exposed the parser as a separate package so the CLI no longer pulls in the server.',
    ]);
    await ignores([
      'Added a log line so we can see which branch is taken.',
      'Added the import so it compiles.',
      'Extended the timeout so you can watch the run.',
      'Added a temporary flag so the old path stays reachable while I debug.',
      'Added the new route to the router.',
    ]);
  });

  it('reads a way judged against another, one stuck with or held off, and a change set aside with its reason', async () => {
    await reads([
      'A dedicated audit table makes more sense than overloading the events table.',
      "We're better off streaming the CSV than loading it whole.",
      "I'll stick with the existing REST client.",
      "I'm not going to add a cache because the query takes 4 ms.",
      'No need for a cache since the query takes 4 ms.',
      "There's no need to add a cache; the query takes 4 ms.",
      "It's not worth adding a cache since the query takes 4 ms.",
      "I'll hold off on the Windows support until the Linux path is stable.",
      "I'll keep this change minimal and only touch the parser.",
      'The safest route is to add the column as nullable first.',
    ]);
    await ignores([
      "I'll go with the flow and read the next file.",
      'No need to rerun the tests since nothing changed.',
      'No need to worry, since the fallback covers it.',
      "There's no need to read the whole file; the header is enough.",
      "I'll hold off on committing until the tests pass.",
    ]);
  });

  it('not what the agent would like to check, nor a recommended look', async () => {
    await ignores([
      "I'd like to check the logs first since the error is odd.",
      'I recommend running the suite again.',
      'I would check the retry counter before changing anything, since it may be stale.',
    ]);
  });
});
