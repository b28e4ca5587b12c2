import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { RulesExtractor } from '../rules-extractor.js';

/** Steps, reminders and facts around a decision, in the words of other projects' sessions (see decision-probes). */

const rules = new RulesExtractor();
let line = 0;
const entry = (role: TranscriptEntry['role'], text: string): TranscriptEntry => ({
  line: (line += 1),
  at: null,
  role,
  kind: 'text',
  text,
  truncated: false,
  tool: null,
  sidechain: false,
});
const said = (t: string) => entry('assistant', t);
const user = (t: string) => entry('user', t);
const found = async (entries: TranscriptEntry[]) =>
  (await rules.extract({ entries })).decisions.map((d) => [d.evidence_line, d.description]);

describe('decisions: what the user says and the agent accepts', () => {
  it('a reminder of a process step, acknowledged by a step, is not a course correction', async () => {
    line = 0;
    expect(
      await found([
        said('I updated the handler and the route.'),
        user('you should run the linter too before saying it is done'),
        said("You're absolutely right. Let me run the linter now."),
        said('The feature is implemented.'),
        user('make sure you commit with a conventional commit message'),
        said('Good call! Committing now.'),
      ]),
    ).toEqual([]);
  });

  it('"no, <fact>" followed by a look is a fact corrected; followed by a change it is a new course', async () => {
    line = 0;
    const look = [
      said('The config lives in `config/app.yaml`.'),
      user("no, it's in `deploy/values.yaml`, the app one is unused"),
      said("You're right, let me look at `deploy/values.yaml`."),
    ];
    expect(await found(look)).toEqual([]);
    line = 0;
    const change = [
      said('I will add it as Phase 1 of the plan.'),
      user("no, it's not phase 1, there are phases completed already"),
      said("You're absolutely right! Let me add this as a critical fix section after Phase 4 instead."),
    ];
    expect((await found(change)).map(([l]) => l)).toEqual([3]);
  });

  it('reads a correction and a directive written with a typographic apostrophe', async () => {
    line = 0;
    expect(
      await found([
        said('I added the mock.'),
        user('don’t use mocks here, hit the real test database'),
        said('Understood.'),
      ]),
    ).toEqual([[2, 'don’t use mocks here, hit the real test database']]);
  });

  it('a directive the agent restates is one decision, where the agent takes it up; "keep going" and "go with whatever" are none', async () => {
    line = 0;
    expect(
      await found([
        said("I'll add a new `formatCurrency` helper in `src/lib/money.ts`."),
        user("don't add a new helper, there's already `formatMoney` in utils. use that one"),
        said("You're right — `formatMoney` already handles locales. I'll use it instead."),
      ]),
    ).toEqual([[3, "I'll use it instead."]]);
    line = 0;
    expect(
      await found([
        said('Task 2 is complete.'),
        user("let's keep going with the next task on the list"),
        said('Moving on to task 3.'),
        said('Should I use Postgres or SQLite for the local cache?'),
        user('go with whatever you think is best'),
        said('Sounds good.'),
      ]),
    ).toEqual([]);
  });
});

describe('decisions: headings and header lists', () => {
  it('a proposal, a description of what exists and a list of trade-offs or looks are not choices', async () => {
    line = 0;
    expect(
      await found([
        said('## Proposed Solution: Rewrite the scheduler in Rust\n\nThis would take a week.'),
        said('## Design: Overview\n\nThe system has three services.'),
        said('**Trade-offs:**\n- Slightly higher memory usage\n- One more container to run in dev'),
        said('Key decisions:\n- Read the existing exporter first\n- Check the failing test output'),
      ]),
    ).toEqual([]);
  });

  it('a chosen heading and a header list of choices still are', async () => {
    line = 0;
    expect(
      await found([
        said('## Final Implementation Plan: Extend Existing HistoryParser\n\nDetails follow.'),
        said('Key decisions:\n- Kept the existing schema so old rows still load'),
        said('Ported.\n\n**Key adaptations:** used serde for the config, clap for the flags.'),
        said('### Option 2: Per-message tracking\n\n**Approach**: Track the ids of the messages sent'),
      ]),
    ).toEqual([
      [1, 'Final Implementation Plan: Extend Existing HistoryParser'],
      [2, 'Kept the existing schema so old rows still load'],
      [3, 'Key adaptations: used serde for the config, clap for the flags.'],
    ]);
  });
});

describe('decisions: Korean steps with a reason', () => {
  it('a look or a step of the process at the end of the sentence is not a choice, whatever its reason', async () => {
    line = 0;
    expect(
      await found([
        said('변경 사항을 확인하기 위해 파일을 읽겠습니다.'),
        said('테스트가 실패했기 때문에 로그를 확인하겠습니다.'),
        said('수정이 끝났으므로 테스트를 실행합니다.'),
        said('모든 테스트가 통과했으므로 커밋하겠습니다.'),
      ]),
    ).toEqual([]);
  });
});

describe('decisions: the rules the user sets for the work', () => {
  const directives = async (text: string) => {
    line = 0;
    return found([said('Done. What next?'), user(text), said('OK.')]);
  };

  it("reads a rule however plainly put; a request, a question or another agent's message is not one", async () => {
    for (const t of [
      'no new dependencies',
      'stick to the standard library',
      'always run the linter before committing',
      'prefer composition over inheritance here',
      'avoid using any in the types',
      'keep the API backwards compatible',
      'only change the parser, nothing else',
      'do not modify the tests',
      'put it behind a feature flag',
      'write the tests first',
      "make sure you don't break the public API",
      'I want it in TypeScript, not JavaScript',
      'Run exactly these commands and nothing else. Stop at the first one that fails.',
    ])
      expect(await directives(t), t).toEqual([[2, t]]);
    for (const t of [
      'add a login page',
      'fix the failing test',
      'can you explain what this function does?',
      'thanks, looks good',
      'commit and push',
      'Another Claude session sent a message: <teammate-message teammate_id="review">{"type":"idle_notification"}</teammate-message>',
    ])
      expect(await directives(t), t).toEqual([]);
  });

  it("reads the rules in a coordinator's task section however long its prompt, not those of a pasted brief", async () => {
    const protocol = `You are a dispatched worker.\n\n=== COMMANDS ===\n${'  # report through the CLI, exactly once\n'.repeat(60)}`;
    const task = 'Docs-only change on feat/cancel: edit PLAN.md. Do not commit, push or open a PR.';
    const [[at, description] = []] = await directives(`${protocol}\n=== TASK ===\n${task}`);
    expect(at).toBe(2);
    expect(description).toBe(task);
    // a brief pasted ahead of the ask: its rules are the brief's, and the message is not read for the user's
    const brief = `${'The challenge: build a model of time. Do not use external data. '.repeat(30)}\nnow build it`;
    expect(brief.length).toBeGreaterThan(1500);
    expect(await directives(brief)).toEqual([]);
  });
});

describe('decisions: installs and run-together sentences', () => {
  const shell = (id: string, command: string): TranscriptEntry[] => [
    {
      ...said(`Bash: ${command}`),
      kind: 'tool_call',
      tool: { id, name: 'Bash', input: { command }, is_error: null, exit_code: null },
    },
    {
      ...said(''),
      role: 'tool',
      kind: 'tool_result',
      tool: { id, name: 'Bash', input: { command }, is_error: false, exit_code: 0 },
    },
  ];

  it('reads a dependency added with a dev flag before its names, at the command, not a requirements file', async () => {
    line = 0;
    expect(
      await found([
        ...shell('a', 'npm install -D vitest @vitest/coverage-v8'),
        ...shell('b', 'npm install --save-dev @types/node'),
        ...shell('c', 'pip install -r requirements.txt'),
      ]),
    ).toEqual([
      [1, 'Added dependency vitest, @vitest/coverage-v8'],
      [3, 'Added dependency @types/node'],
    ]);
  });

  it("reads every package manager's add, not a global install, a dry run, a bare install or what follows a redirection", async () => {
    line = 0;
    expect(
      await found([
        ...shell('a', 'bun add -d oxfmt oxlint 2>&1 | tail -5 && bunx oxfmt --init'),
        ...shell('b', 'composer require monolog/monolog'),
        ...shell('c', 'cd api && pip install "fastapi[all]>=0.110" uvicorn >/dev/null'),
        ...shell('d', 'pnpm add -w -D typescript'),
        ...shell('e', 'npm install -w web react-router'),
        ...shell('f', 'npm install -g typescript'),
        ...shell('g', 'npm install && npm ci'),
        ...shell('h', 'pip install --upgrade pip'),
        ...shell('i', 'pip3 install --dry-run mcp==2.0.0 2>&1 | head -5'),
      ]),
    ).toEqual([
      [1, 'Added dependency oxfmt, oxlint'],
      [3, 'Added dependency monolog/monolog'],
      [5, 'Added dependency fastapi[all]>=0.110, uvicorn'],
      [7, 'Added dependency typescript'],
      [9, 'Added dependency react-router'],
    ]);
  });

  it('splits sentences whose space after the period is missing', async () => {
    line = 0;
    expect(
      await found([
        said(
          'The helper counts entries.Let me add the helper function to hooks.go since three tests need it.',
        ),
      ]),
    ).toEqual([[1, 'Let me add the helper function to hooks.go since three tests need it.']]);
  });
});

describe('decisions: the alternative set aside, and when it makes a workaround', () => {
  it('reads the alternative into alternatives_considered, not into the reason', async () => {
    line = 0;
    const { decisions } = await rules.extract({
      entries: [
        said("I'm choosing pnpm workspaces over Nx because the repo has only three packages."),
        said(
          "I'll keep the retries in the Airflow task rather than in the Python code, so the scheduler can see each attempt.",
        ),
        said(
          "Since `jq` isn't installed on the CI image, I'll do the JSON parsing in a small Python snippet instead.",
        ),
      ],
    });
    expect(decisions.map((d) => [d.alternatives_considered, d.rationale, d.decision_type])).toEqual([
      [['Nx'], 'the repo has only three packages', 'approach'],
      [['in the Python code'], 'the scheduler can see each attempt', 'approach'],
      [null, "`jq` isn't installed on the CI image", 'workaround'],
    ]);
  });
});

describe('decisions: a plan the user turns down', () => {
  it('drops the choice the user rejects, keeps the turn’s other choices', async () => {
    line = 0;
    expect(
      await found([
        user('we need a staging environment that mirrors prod but cheaper'),
        said(
          "For staging I'll use a single small database instance, since it doesn't need high availability.",
        ),
        said("I'll refactor the whole auth module into classes since the functions share a lot of state."),
        user('no, leave the auth module alone, just fix the token expiry bug'),
        said('Understood. Fixing only the expiry check.'),
      ]),
    ).toEqual([
      [2, "For staging I'll use a single small database instance, since it doesn't need high availability."],
    ]);
  });
});

describe('decisions: the pace the user sets and the way the user asks the agent to pick', () => {
  it('a directive on the pace of the work, restated in the reply, is one decision at the reply', async () => {
    line = 0;
    const asked = [
      said('The schema and the migrations are written.'),
      user('one phase at a time please, and ask me before touching the API'),
      said(
        'Understood — one phase at a time, and I’ll ask you before any API change. Finishing phase 1 now.',
      ),
    ];
    expect((await found(asked)).map(([at]) => at)).toEqual([3]);
    line = 0;
    expect(await found([said('Phase 1 is done.'), user('continue with the next phase')])).toEqual([]);
  });

  it("the reply to the user's either-or question that opens by naming one way is the agent's choice", async () => {
    line = 0;
    const answered = [
      user('should the export run nightly, or on every upload?'),
      said(
        'Nightly, in one batch job. An upload-time export would slow every upload for a report read once a day.',
      ),
    ];
    expect(await found(answered)).toEqual([[2, 'Nightly, in one batch job']]);
  });

  it('a question of fact, or a reply that looks first, is no choice', async () => {
    line = 0;
    const fact = [
      user('is the timeout in the client, or in the proxy?'),
      said('In the proxy: `proxy.yaml` sets 30s.'),
    ];
    expect(await found(fact)).toEqual([]);
    line = 0;
    const looks = [
      user('will the cache live in Redis, or in process memory?'),
      said('Let me check how the workers are deployed before I answer that.'),
    ];
    expect(await found(looks)).toEqual([]);
  });
});

describe('decisions: verbs that choose a way by themselves', () => {
  it('reads amend, revert, pin and disable as choices, and a look or a plain edit as none', async () => {
    line = 0;
    const { decisions } = await rules.extract({
      entries: [
        said('Now let me amend the commit with the test fixes and update the PR:'),
        said("I'll pin `serde` to 1.0.197 in Cargo.toml."),
        said('Let me disable the flaky retry test in CI.'),
        said('Let me check the lockfile for the pinned version.'),
        said("I'll update the README with the new flag."),
      ],
    });
    expect(decisions.map((d) => d.evidence_line)).toEqual([1, 2, 3]);
  });
});
