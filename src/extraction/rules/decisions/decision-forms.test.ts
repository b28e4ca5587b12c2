import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { say } from '../../../../test/helpers/tool-results.js';
import { RulesExtractor } from '../rules-extractor.js';

/**
 * Restraint (a change chosen not to be made, a change kept to a scope) and the user's answer that settles the agent's
 * question. The sentences are written for these tests, in the words of projects other than the labelled ones.
 */

const rules = new RulesExtractor();
const said = (text: string) => say(text);
const user = (text: string) => say(text, 'user');
const found = async (entries: TranscriptEntry[]) =>
  (await rules.extract({ entries: [said('Done.'), ...entries] })).decisions.map((d) => ({
    line: d.evidence_line,
    type: d.decision_type,
    description: d.description,
  }));
const lines = async (entries: TranscriptEntry[]) => (await found(entries)).map((d) => d.line);

describe('decisions: restraint', () => {
  it('the agent says which change it will not make, or what a change leaves alone', async () => {
    const lockfile = said(
      'The Gemfile.lock drift comes from a local bundler upgrade. I won’t touch the lockfile in this PR.',
    );
    const migration = said(
      'The index fix is in. I’m not going to rename the `legacy_orders` table here, since three reports still query it.',
    );
    const planStep = said(
      "Don't commit the regenerated fixtures; ask the maintainer whether they belong in git.",
    );
    const scoped = said(
      'Rebasing now — this only moves the docs branch onto the new tag, it doesn’t touch your stashed edits.',
    );
    const declined = said(
      'The changelog typo is unrelated, so I’m deliberately not fixing it in this change.',
    );
    const decisions = await found([lockfile, migration, planStep, scoped, declined]);
    expect(decisions.map((d) => [d.line, d.type])).toEqual([
      [lockfile.line, 'skip'],
      [migration.line, 'skip'],
      [planStep.line, 'skip'],
      [scoped.line, 'skip'],
      [declined.line, 'skip'],
    ]);
  });

  it('not a restraint: a look or a run left undone, a report of nothing changed, a thing that changes nothing', async () => {
    expect(
      await lines([
        said("I won't rerun the whole matrix; the failing job is the only one that matters."),
        said("I didn't change anything else in the module."),
        said("This doesn't change the rendered output, only the cache key."),
        said("Don't worry about the deprecation warnings from the old webpack loader."),
        said("I won't be able to reach the staging database from this sandbox."),
      ]),
    ).toEqual([]);
  });

  it('each item under a heading of changes left alone is one choice not to change it', async () => {
    const report = said(
      [
        'The flaky upload test is fixed: the temp bucket is now created per test.',
        '',
        'Things I noticed but did **not** change:',
        '',
        '1. **Pinned Terraform provider.** `versions.tf` still pins the AWS provider to 4.x. Upgrading it touches every module, so I kept it out of a test fix.',
        '2. **`scripts/seed.sh`** seeds a hard-coded region. Nothing in CI runs it. Is it still used?',
        '',
        'The branch is pushed.',
      ].join('\n'),
    );
    const decisions = await found([report]);
    expect(decisions.filter((d) => d.type === 'skip').map((d) => d.description)).toEqual([
      'Pinned Terraform provider. `versions.tf` still pins the AWS provider to 4.x. Upgrading it touches every module, so I kept it out of a test fix.',
      '`scripts/seed.sh` seeds a hard-coded region. Nothing in CI runs it. Is it still used?',
    ]);
    // a heading that lists what changed is not one of them
    const changed = said(
      [
        'Things I changed:',
        '',
        '- Bumped the Node image to 20.',
        '- Moved the cache step before install.',
      ].join('\n'),
    );
    expect((await found([changed])).filter((d) => d.type === 'skip')).toEqual([]);
  });
});

describe("decisions: the user's answer settles the agent's question", () => {
  it('an answer to "want me to ...?" about a change is a decision at the answer', async () => {
    const asked = said(
      'The migration is written and the tests pass. It is not committed yet. Want me to commit it and open a PR against `develop`? CI only runs on PRs.',
    );
    const answer = user('commit it, but push straight to develop');
    const decisions = await found([asked, answer]);
    expect(decisions.map((d) => [d.line, d.type])).toEqual([[answer.line, 'clarification']]);
    expect(decisions[0]?.description).toBe(
      'Want me to commit it and open a PR against develop? -> commit it, but push straight to develop',
    );
  });

  it('not settled: a question about a look or going on, an answer that asks back, a yes to a choice already stated', async () => {
    expect(await lines([said('The parser is done. Should I run the benchmarks now?'), user('yes')])).toEqual(
      [],
    );
    expect(await lines([said('Shall I continue with the next module?'), user('sure')])).toEqual([]);
    expect(
      await lines([
        said('Want me to squash these commits before pushing?'),
        user('why would we squash them?'),
      ]),
    ).toEqual([]);
    const proposal = said(
      'I recommend moving the retry logic into the HTTP client, since every caller repeats it. Should I go ahead with that?',
    );
    expect(await lines([proposal, user('yes please')])).toEqual([proposal.line]);
  });
});

describe('decisions: a recommendation under its heading, a way taken over another in any person', () => {
  it('the list under "Recommended fix:" is one recommendation; under "Findings:" it is not', async () => {
    const recommended = said(
      [
        'The cron job double-fires because both replicas run the scheduler.',
        '',
        'Recommended fix:',
        '',
        '- Take a Postgres advisory lock before each run.',
        '- Skip the run when the lock is held.',
        '',
        'Nothing is changed yet.',
      ].join('\n'),
    );
    const findings = said(
      ['Findings:', '', '- Both replicas run the scheduler.', '- The lock table is empty.'].join('\n'),
    );
    const decisions = await found([recommended, findings]);
    expect(decisions.map((d) => [d.line, d.description])).toEqual([
      [
        recommended.line,
        'Recommended fix: Take a Postgres advisory lock before each run.; Skip the run when the lock is held.',
      ],
    ]);
  });

  it('"instead" and "rather than" with the agent as subject, a bare report or "I\'d rather ... than"', async () => {
    const taken = [
      'We serialize the payload with msgpack instead of JSON.',
      'I went ahead and used a mutex here rather than an atomic.',
      'Kept the retry count at 3 instead of raising it.',
      "I'd rather regenerate the client than hand-edit it.",
      'The fix was to debounce the resize handler rather than throttle it.',
    ].map(said);
    expect(await lines(taken)).toEqual(taken.map((e) => e.line));
    expect(
      await lines([
        said('I got a 404 instead of the login page.'),
        said('We can use a queue instead of polling if the load grows.'),
        said('I checked the deploy logs instead.'),
        said('I traced the leak through heap snapshots rather than adding more logging.'),
        said('You can pass the token as a header instead of a query parameter.'),
      ]),
    ).toEqual([]);
  });
});

describe('decisions: more restraint and scope, one of named options', () => {
  it('kept where it is, kept around, scoped, held off, asked first, left undone for a reason', async () => {
    const taken = [
      "I'll leave the generated protobuf files as they are.",
      'Keeping the old column around until the backfill finishes.',
      "I'll scope the change to the Linux build only.",
      "I'd hold off on upgrading Next.js until the middleware API settles.",
      "I'll ask before deleting anything in the bucket.",
      "I haven't touched the migration files, since they already ran in production.",
    ].map(said);
    expect(await lines(taken)).toEqual(taken.map((e) => e.line));
    expect(
      await lines([
        said('Keep the demo around ten minutes.'),
        said('The alias is unused because I haven’t added the code that uses it yet.'),
        said("I haven't touched the frontend yet."),
      ]),
    ).toEqual([]);
  });

  it('one of named or counted options judged or taken', async () => {
    const taken = [
      'Between Redis and an in-process LRU, the LRU is enough here: there is one instance.',
      "Of the two options, the second is safer because it doesn't need a schema change.",
      'Option B it is: a separate worker process, so the web tier stays responsive.',
      "Both would work, but patching the serializer is the smaller change, so I'll do that.",
      'The safer bet is to pin `pydantic<2` until the models are migrated.',
    ].map(said);
    expect(await lines(taken)).toEqual(taken.map((e) => e.line));
    expect(
      await lines([
        said('Between the two runs, the p99 latency dropped by a third.'),
        said('Of the three options, none handles the offline case.'),
      ]),
    ).toEqual([]);
  });
});

describe("decisions: the user's answers to the points of the agent's numbered list", () => {
  const proposal = () =>
    said(
      [
        'Three gaps in the export job:',
        '',
        '1. **Encoding** -- the CSV writer uses `locale.default_encoding()`; it should write UTF-8 with a BOM for Excel.',
        '2. **Time zones** -- timestamps are local; they could be UTC or carry an offset.',
        '3. **Large exports** -- the whole result is held in memory; it could stream in pages.',
        '',
        'Should I go ahead with these?',
      ].join('\n'),
    );

  it('says a long point by its lead and the sentence that offers the choice the answer makes', async () => {
    const asked = said(
      [
        'Summary of what needs to happen:',
        '',
        '1. **Python deps** -- During install, walk the component tree and aggregate `pythonDependencies` from all component manifests alongside the root. Same for the validation step.',
        "2. **Settings** -- During install, after handling the root's settings, iterate over each component that declares settings and either prompt the user or accept `--config` values. The `--config` flag needs a namespacing convention (e.g. `component-name.key=value` or `component-name:key=value`) so the user can target component settings from the CLI.",
        '',
        'Want me to implement these fixes?',
      ].join('\n'),
    );
    const points = said(
      [
        '1. **Format** -- The export needs a format (e.g. JSON or YAML) so other tools can read it.',
        '2. **Retry policy** -- Retries happen on 5xx. Should they also happen on timeouts? That is, either retry on both or not at all.',
        '',
        'Which way for each?',
      ].join('\n'),
    );
    expect((await found([points, user('1. json\n2. no')])).map((d) => d.description)).toEqual([
      'Format: The export needs a format (e.g. JSON or YAML) so other tools can read it. -> json',
      'Retry policy: Should they also happen on timeouts? -> no',
    ]);
    const decisions = await found([asked, user('1. good.\n2. use period.')]);
    expect(decisions.map((d) => d.description)).toEqual([
      'Python deps: During install, walk the component tree and aggregate pythonDependencies from all component manifests alongside the root. -> good.',
      'Settings: The --config flag needs a namespacing convention (e.g. component-name.key=value or component-name:key=value) so the user can target component settings from the CLI. -> use period.',
    ]);
  });

  it('each numbered answer settles its point, at the user message', async () => {
    const asked = proposal();
    const answer = user('1. yes\n2. UTC, no offsets\n3. later, not in this PR');
    const decisions = await found([asked, answer]);
    expect(decisions.map((d) => [d.line, d.description])).toEqual([
      [
        answer.line,
        'Encoding: the CSV writer uses locale.default_encoding(); it should write UTF-8 with a BOM for Excel. -> yes',
      ],
      [
        answer.line,
        'Time zones: timestamps are local; they could be UTC or carry an offset. -> UTC, no offsets',
      ],
      [
        answer.line,
        'Large exports: the whole result is held in memory; it could stream in pages. -> later, not in this PR',
      ],
    ]);
  });

  it('not answers: the user numbering tasks of their own, questions back, a list that asked nothing', async () => {
    const ownTasks = user(
      '1. rename the job to export-csv\n2. add a --dry-run flag\n3. write the changelog entry',
    );
    expect(
      (await found([said('Export job is done and the tests pass.\n\n1. CSV\n2. JSON'), ownTasks])).filter(
        (d) => d.type === 'clarification',
      ),
    ).toEqual([]);
    expect(
      (await found([proposal(), user('1. why a BOM?\n2. what do the other jobs use?')])).filter(
        (d) => d.type === 'clarification',
      ),
    ).toEqual([]);
  });
});

describe('decisions: what is done now because of the clause before, a change kept to a scope', () => {
  it('"..., so I\'m <doing>", "so ... regardless of ...", "everything except ..."', async () => {
    const taken = [
      "The registry is read-only from this network, so I'm vendoring the two packages into `third_party/`.",
      "The sandbox blocks writes to .git, so I'm requesting approval to run the commit outside it.",
      'Applying the patch to both Dockerfiles so the image builds regardless of which base is cached.',
      "I'll set the locale explicitly so the sort order is the same regardless of the runner.",
      'Committing everything except the 2 GB model checkpoints, which stay ignored.',
      "I'll stage all the changes except the local `.env` edits.",
    ].map(said);
    expect(await lines(taken)).toEqual(taken.map((e) => e.line));
    expect(
      await lines([
        said("The upload timed out, so I'm retrying it once."),
        said("All 40 tests pass, so I'm committing."),
        said("The job is still queued, so I'm checking the runner logs."),
        said('Everything except the flaky test passes now.'),
        said("I'll run the migration in dry-run mode first."),
      ]),
    ).toEqual([]);
  });
});

describe('decisions: a plan set out in a list', () => {
  it('is one choice, described with its items', async () => {
    const plan = said(
      [
        'Plan:',
        '1. Add a `last_seen_at` column with a backfill migration.',
        '2. Expire sessions in a nightly job instead of on every request.',
        '3. Run the suite and the migration check.',
        '',
        'Shall I start?',
      ].join('\n'),
    );
    const decisions = await found([plan]);
    expect(decisions.map((d) => [d.line, d.description])).toContainEqual([
      plan.line,
      'Plan: Add a `last_seen_at` column with a backfill migration.; Expire sessions in a nightly job instead of on every request.; Run the suite and the migration check.',
    ]);
  });

  it('not a plan of looks only, nor the detail of a solution a heading named', async () => {
    const looks = said(
      ['## Plan', '', '1. Read the session middleware.', '2. Check how expiry is tested.'].join('\n'),
    );
    expect(await found([looks])).toEqual([]);
    const named = said(
      [
        '## Solution: Expire Sessions in a Nightly Job',
        '',
        '## Implementation plan',
        '',
        '- Add the `last_seen_at` column.',
        '- Schedule the job in the worker.',
      ].join('\n'),
    );
    expect((await found([named])).map((d) => d.description)).toEqual([
      'Solution: Expire Sessions in a Nightly Job',
    ]);
  });
});

describe('decisions: a design stated as what a part will or should do, a purpose "so X is ..."', () => {
  it('with its reason, and after a plain "will" with its purpose', async () => {
    const taken = [
      'The function will also take a per-user lock; without it, two bookings could both pass the cap check.',
      "The cache will expire entries after an hour so stale prices don't linger.",
      'Both handlers should build the key from the path alone and ignore the query string, so cached pages match whatever the tracking params.',
      'The importer should handle empty files, since users upload them.',
      "I'm removing the `--fast` flag there too, so the release build is identical to CI's.",
    ].map(said);
    expect(await lines(taken)).toEqual(taken.map((e) => e.line));
    expect(
      await lines([
        said('The build will take a few minutes because it compiles everything.'),
        said('The parser will skip the line because it starts with #.'),
        said('The test will fail because the fixture is missing.'),
        said('I fixed the typo, so the docs build is green now.'),
        said('The only failure so far is the lint job, which times out on the runner.'),
      ]),
    ).toEqual([]);
  });
});

describe("decisions: a reviewer's verdict", () => {
  it('in its own voice, for or against; not a verdict it reports from a bot or a tool', async () => {
    const merge = said('Yes, this is a small, careful fix of the retry loop, and I’d merge it.');
    const hold = said(
      'I wouldn’t merge this yet: the migration drops the `notes` column before the backfill runs.',
    );
    const bot = said('The review bot rated the change safe to merge, and the linter found nothing.');
    const asked = said('Would you like me to merge it once CI is green?');
    expect(await lines([merge, hold, bot, asked])).toEqual([merge.line, hold.line]);
  });
});

describe('decisions: an order of work', () => {
  it('where the work begins is no way of doing it, even with its reason', async () => {
    const first = said('Let me start with the parser — it is small and the others depend on it.');
    const begin = said("I'll begin with the migration, then the API.");
    const way = said(
      "I'll use the generated tokenizer instead of the hand-written one, since it already handles escapes.",
    );
    // where it begins with the way it chose over another is a choice
    const over = said("I'll start with SQLite instead of Postgres, since the tests need no server.");
    expect(await lines([first, begin, way, over])).toEqual([way.line, over.line]);
  });
});
