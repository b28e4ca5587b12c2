import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalClient } from '../../src/client/local-client.js';
import { bareLinks } from '../../src/core/requests/request-gist.js';
import { asksForNoWork } from '../../src/core/requests/request-text.js';
import { loadLabels, type LabelFile } from '../../src/extraction/eval/labels.js';
import { inItsFolder } from '../../src/core/context/context-parts.js';
import { testStep } from '../../src/extraction/rules/shell-command.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { countTokens } from '../../src/tokens/count-tokens.js';
import { runCli } from '../helpers/cli.js';
import { importedSession } from '../helpers/imported-session.js';
import { corpusPath, readCorpus } from '../helpers/corpus.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

const budgets = [400, 800, 1500, 4000];
const labels = loadLabels();
const sourceOf = (label: LabelFile) => (label.corpus.startsWith('codex/') ? 'codex' : 'claude-code');
const words = (text: string) => text.replace(/\s+/g, ' ').trim();
/** A text's first `n` characters back to the end of a word (a title shrunk to fit is cut at a word). */
const wordsUpTo = (text: string, n: number) => {
  const head = words(text).slice(0, n + 1);
  return head.length <= n ? head : head.slice(0, Math.max(head.lastIndexOf(' '), Math.ceil(n * 0.6)));
};
const mark = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;

/** What the issue asks every compiled context to hold, checked against the hand labels. */
function expectHolds(markdown: string, label: LabelFile, budget: number, where: string) {
  const text = words(markdown);
  // the request that names the goal: the first that says what to do (a go-ahead only answers what came before)
  const first = label.goal.find((g) => !asksForNoWork(g.text)) ?? label.goal[0];
  if (first) {
    // a pasted address the agent's app wrote as a link to itself (`[url](url)`) is said once, as pasted (a label may
    // hold the link's first half alone, `[url]`)
    const asPasted = words(bareLinks(first.text).replace(/\[(https?:\/\/[^\]\s]+)\]/g, '$1')).replace(
      /…$/,
      '',
    );
    // its first 60 characters; at the least budget, where the fit may take the requests to their floor and the room
    // its refill gives back turns on a token or two (the ids in the stamp are random), its first 40 back to a word
    const opening = budget <= 400 ? wordsUpTo(asPasted, 40) : asPasted.slice(0, 60);
    expect(text, `${where}: the user's request`).toContain(opening);
  } else expect(text, where).toContain('no request recorded)');
  for (const c of label.commits) expect(text, `${where}: commit ${c.hash}`).toContain(c.hash.slice(0, 7));
  for (const t of label.final_tasks) {
    const line = markdown.split('\n').find((l) => l.includes(wordsUpTo(t.content, 26)));
    expect(line, `${where}: task "${t.content}"`).toBeDefined();
    expect(line, `${where}: status of "${t.content}"`).toContain(mark[t.status]);
  }
  const test = label.last_test;
  if (test) {
    // the test command itself: the part of the labelled shell line that ran the tests, where this worktree runs it
    expect(text, `${where}: last test command`).toContain(
      `Last run: ${wordsUpTo(inItsFolder(testStep(test.command)), 40)}`,
    );
    if (test.passed !== null) expect(text, `${where}: passed`).toContain(`${test.passed} passed`);
    if (test.failed !== null) expect(text, `${where}: failed`).toContain(`${test.failed} failed`);
  } else expect(text, where).not.toContain('### TDD State');
  // a cut never leaves an empty code block (a fence opened and closed with nothing between)
  expect(markdown, where).not.toMatch(/^[ \t]*```[^\n]*\n(?:[ \t]*…?[ \t]*\n)*[ \t]*```[ \t]*$/m);
  expect(text, where).toMatch(/baton details \S+ <category>/);
  expect(text, where).toContain('get_details');
}

/** The user's requests the Goal shows: the first ("The user asked: ...") and the later ones, as shown. */
function goalRequests(markdown: string): string[] {
  const goal = markdown.split('### Goal')[1]?.split('\n\n')[0] ?? '';
  return [
    ...[...goal.matchAll(/^The user asked: (.+)$/gm)].map((m) => m[1]!),
    ...[...goal.matchAll(/^ {2}- "(.+)"$/gm)].map((m) => m[1]!),
  ].map((r) => words(r).replace(/…$/, ''));
}

/** A request the Goal shows is not said again as a decision in the user's words (a directive): each is said once. */
function expectGoalOnce(markdown: string, where: string) {
  const section = markdown.split('### Key Decisions Made')[1]?.split('\n### ')[0] ?? '';
  const decisions = [...section.matchAll(/^ {2}- \[[\w-]+\] (.+)$/gm)].map((m) =>
    words(m[1]!).replace(/…$/, ''),
  );
  for (const r of goalRequests(markdown).filter((r) => r.length >= 12))
    for (const d of decisions.filter((d) => d.length >= 12))
      expect(r.startsWith(d) || d.startsWith(r), `${where}: "${r}" said again as a decision`).toBe(false);
}

describe('a labelled session imported, then its context at 400, 800, 1,500 and 4,000 tokens', () => {
  it.each(labels.map((l) => [l.name, l.label] as const))(
    '%s: holds the request, every commit, the task list with statuses and the last test state, within budget',
    async (name, label) => {
      const service = makeService();
      const client = new LocalClient(service);
      const repo = makeRepo();
      await client.create({ title: name, tasks: [], cwd: repo });
      const ref = { cwd: repo };
      const imported = await importTranscriptFile(client, ref, corpusPath(label.corpus), sourceOf(label));
      expect(imported.new_entries, name).toBeGreaterThan(0);
      for (const budget of budgets) {
        const c = await client.context(ref, budget);
        expect(c.tokens, `${name} at ${budget}`).toBeLessThanOrEqual(budget);
        expect(countTokens(c.markdown), `${name} at ${budget}: counted again`).toBe(c.tokens);
        expect(c.over_budget, `${name} at ${budget}:\n${c.markdown}`).toBe(false);
        expectHolds(c.markdown, label, budget, `${name} at ${budget}`);
        expectGoalOnce(c.markdown, `${name} at ${budget}`);
      }
      await service.store.close();
    },
  );
});

describe("the user's requests in the briefing", () => {
  it('are said once: a directive the Goal shows is not listed again as a decision, one the agent gave a reason for is named', async () => {
    const service = makeService();
    const client = new LocalClient(service);
    const briefing = async (name: string) => {
      const label = labels.find((l) => l.name === name)?.label as LabelFile;
      const repo = makeRepo();
      await client.create({ title: name, tasks: [], cwd: repo });
      await importTranscriptFile(client, { cwd: repo }, corpusPath(label.corpus), sourceOf(label));
      return (await client.context({ cwd: repo }, 4000)).markdown;
    };
    // the only decision is the user's first request, which the Goal shows
    const jev = await briefing('jev-orchestrator-session');
    expect(jev).toContain('The user asked: Documentation-only implementation');
    expect(jev).toContain("### Key Decisions Made: only the user's directives, in the Goal");
    const sync = await briefing('codemie-sync-tracking-review');
    const goal = sync.split('### Plan Status')[0]!;
    const decisions = sync.split('### Key Decisions Made')[1]!.split('\n### ')[0]!;
    expect(goal).toContain('"don\'t add notes, looks like there is a need to track codemie conversation_uid');
    expect(decisions).not.toContain("don't add notes");
    // the agent's answer is a reason of its own: kept, the request named by its first words
    expect(decisions).toMatch(
      /- \[approach\] the user's request above \("conversationId is the same as sessionId\.[^"]*…"\)\n {4}Rationale: If conversationId is the same as sessionId/,
    );
    // an older directive that limits the agent stays in force: the Goal shows it, the decisions do not repeat it
    expect(goal).toContain("don't create separate documents");
    expect(decisions).not.toContain("don't create separate documents");
    await service.store.close();
  });

  it('say when the conversation opened on a go-ahead to what was agreed before it was recorded', async () => {
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    await client.create({ title: 'readmes', tasks: [], cwd: repo });
    // a session whose first request is "yep let's do it", cut after the user's "yep push and PR" and what followed
    const path = join(tempDir(), 'session.jsonl');
    const lines = readCorpus('claude-code/entire-cli/70/33bba9319c/0/full.jsonl').split('\n');
    writeFileSync(path, lines.slice(0, 95).join('\n') + '\n');
    await importTranscriptFile(client, { cwd: repo }, path, 'claude-code');
    const goal = (await client.context({ cwd: repo }, 4000)).markdown.split('### Plan Status')[0]!;
    expect(goal).toContain(
      'The user asked: yep push and PR\n(The conversation opened on "yep let\'s do it", a go-ahead to what was agreed before it was recorded.)\n',
    );
    await service.store.close();
  });
});

describe('a go test run without -v', () => {
  it('says the packages that passed beside the failures, not "0 failed" alone, at any budget', async () => {
    // a real session (claude-code/entire-cli/9f, line 157): `mise run test` ran `go test ./...`, eleven `ok` packages
    const transcript = 'claude-code/entire-cli/9f/d2fc39aa5f/0/full.jsonl';
    const { service, client, repo } = await importedSession(transcript, 'claude-code', 'go packages');
    for (const budget of [400, 4000]) {
      const c = await client.context({ cwd: repo }, budget);
      expect(c.markdown, `${budget}`).toContain('- Last run: mise run test -> 11 packages ok, 0 failed\n');
    }
    await service.store.close();
  });
});

describe('a last turn the user interrupted (Esc, Ctrl-C)', () => {
  const said = 'The user interrupted the last turn';
  const ask = 'before it finished: it is not done; ask them before redoing it.';

  it('is said in the Last State with the request it was on, and What to Do Next asks the user, at any budget', async () => {
    const transcript = 'claude-code/spotter/tool_heavy.jsonl';
    const { service, client, repo } = await importedSession(transcript, 'claude-code', 'interrupted');
    for (const budget of [400, 800, 4000]) {
      const c = await client.context({ cwd: repo }, budget);
      expect(c.tokens, `${budget}`).toBeLessThanOrEqual(budget);
      expect(c.over_budget).toBe(false);
      const last = c.markdown.split('### Last State')[1]!.split('\n### ')[0]!;
      // the agent's last message came before it, in an earlier turn: said first, then the interruption
      expect(last).toMatch(
        /^ \(the agent's last message, 2026-02-10T22:58:02\.040Z\)\nPhoenix server is starting/,
      );
      expect(last).toContain(
        `${said} (their request "scrolling back in xterm.js still does not work…", 2026-02-10T22:59:46.748Z) ${ask}`,
      );
      // the request the turn was on is the last later one, not the Goal's first: named where it is
      expect(c.markdown).toContain('Later requests:\n  - "scrolling back in xterm.js');
      expect(c.markdown).toContain(
        'No task is recorded: ask the user how to go on with their latest request (the last of the Later requests, under Goal), whose turn they interrupted.',
      );
    }
    await service.store.close();
  });

  it('is no longer said once a later turn completed: an import that reads on supersedes it', async () => {
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    await client.create({ title: 'interrupted, then on', tasks: [], cwd: repo });
    const lines = readCorpus('claude-code/codemie-code/session-624a4a58.jsonl').split('\n');
    // the transcript as a hook reads it while the session runs: up to its first interruption, then the rest
    const path = join(tempDir('baton-transcript-'), 'session.jsonl');
    writeFileSync(path, `${lines.slice(0, 67).join('\n')}\n`);
    await importTranscriptFile(client, { cwd: repo }, path, 'claude-code');
    expect((await client.context({ cwd: repo }, 4000)).markdown).toMatch(
      new RegExp(
        `${said} \\(their request "don't create separate documents\\.[^"]*…", [\\d:.TZ-]+\\) ${ask.replace(/\./g, '\\.')}`,
      ),
    );
    appendFileSync(path, lines.slice(67).join('\n'));
    await importTranscriptFile(client, { cwd: repo }, path, 'claude-code');
    const after = (await client.context({ cwd: repo }, 4000)).markdown;
    expect(after).not.toContain(said);
    // the later turn ended on the agent's reply to the latest request: whether more is wanted is the user's to say
    expect(after).toContain(
      "No task is recorded, and the agent's last message (Last State) replies to the user's latest request: unless it names work left, ask the user what comes next.",
    );
    await service.store.close();
  });

  it("is read from a Codex rollout's turn_aborted, through baton import and baton context", async () => {
    const env = { BATON_HOME: tempDir('baton-home-') };
    const repo = makeRepo();
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    expect((await baton('create', '--title', 'codex interrupted')).code).toBe(0);
    const rollout =
      'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    // the second turn cut while its calls ran, as Codex writes an Esc
    const aborted = JSON.stringify({
      timestamp: '2026-05-11T08:34:10.000Z',
      type: 'event_msg',
      payload: {
        type: 'turn_aborted',
        turn_id: '019e162b-0011-7240-abbc-f7b732e49728',
        reason: 'interrupted',
      },
    });
    const path = join(tempDir('baton-rollout-'), 'rollout.jsonl');
    writeFileSync(path, [...readCorpus(rollout).split('\n').slice(0, 46), aborted].join('\n'));
    const imp = await baton('import', 'codex', path);
    expect(imp.code, imp.stderr).toBe(0);
    const ctx = await baton('context', '--budget', '800');
    expect(ctx.code, ctx.stderr).toBe(0);
    expect(ctx.stdout).toContain(
      `${said} (their request "let's update the defailt context compart to 90…", 2026-05-11T08:34:10.000Z) ${ask}`,
    );
  });
});

describe('the same through the CLI', () => {
  it('baton import then baton context, for a Claude Code transcript and a Codex rollout', async () => {
    const env = { BATON_HOME: tempDir('baton-home-') };
    for (const name of ['entire-cli-pty-refactor', 'hk-detached-head']) {
      const label = labels.find((l) => l.name === name)?.label as LabelFile;
      const repo = makeRepo();
      const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
      expect((await baton('create', '--title', name)).code).toBe(0);
      const imp = await baton('import', sourceOf(label), corpusPath(label.corpus));
      expect(imp.code, imp.stderr).toBe(0);
      expect(imp.stdout).toMatch(/extracted by rules/);
      const ctx = await baton('context', '--budget', '400', '--json');
      const c = ctx.json<{ markdown: string; tokens: number; over_budget: boolean }>();
      expect(c.tokens, c.markdown).toBeLessThanOrEqual(400);
      expect(c.over_budget).toBe(false);
      expectHolds(c.markdown, label, 400, `${name} (CLI)`);
      const text = await baton('context', '--budget', '4000');
      expect(text.stdout).toContain('### Last State');
    }
  });

  it('says over_budget, in the text and the JSON, when the facts never dropped do not fit', async () => {
    const env = { BATON_HOME: tempDir('baton-home-') };
    const repo = makeRepo();
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    await baton('create', '--title', 'five commits');
    const long = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';
    expect((await baton('import', 'claude-code', corpusPath(long))).code).toBe(0);
    const fits = (await baton('context', '--budget', '400', '--json')).json<{
      over_budget: boolean;
      tokens: number;
    }>();
    expect(fits.over_budget).toBe(false);
    expect(fits.tokens).toBeLessThanOrEqual(400);
    const tiny = (await baton('context', '--budget', '200', '--json')).json<{
      markdown: string;
      over_budget: boolean;
      json: { over_budget: boolean };
    }>();
    expect(tiny.over_budget).toBe(true);
    expect(tiny.json.over_budget).toBe(true);
    expect(tiny.markdown).toContain(
      '(briefing cut to fit 200 tokens, and still over them: run `baton context` for the whole)',
    );
    // still the shortest form of what is never dropped: the request and every commit
    expect(tiny.markdown).toContain('The user asked: Implement spotter-gqc');
    for (const hash of ['99b497c', 'ceff8c3', 'bb53fb4', '05fd186', 'a230dbf'])
      expect(tiny.markdown).toContain(hash);
  });
});

describe('the context a new session would get now', () => {
  it('comes from the latest snapshot until something it shows is recorded, then from the workflow as it stands', async () => {
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    await client.create({ title: 'live', tasks: [{ id: 'T1', title: 'Build it' }], cwd: repo });
    const ref = { cwd: repo };
    await client.task(ref, 'start', 'T1');
    await client.pause(ref, { reason: 'lunch', force: true });
    const snaps = (await client.snapshots(ref)).snapshots;
    const paused = await client.context(ref);
    expect(paused.snapshot_id).toBe(snaps.at(-1)?.id);
    await client.deliverContext(ref, 'cli');
    expect((await client.context(ref)).snapshot_id, 'a delivery changes nothing shown').toBe(
      paused.snapshot_id,
    );
    await client.record(ref, {
      kind: 'decision',
      decision: {
        task_id: null,
        decision_type: 'library',
        description: 'Use zod for the schemas',
        rationale: 'one source',
        alternatives_considered: null,
      },
    });
    const live = await client.context(ref);
    expect(live.snapshot_id).toMatch(/^live-\d+$/);
    expect(live.markdown).toContain('Use zod for the schemas');
    expect(live.markdown).toContain(`baton details ${live.snapshot_id} <category>`);
    const decisions = (await client.details(ref, live.snapshot_id, 'decisions')) as { description: string }[];
    expect(decisions.map((d) => d.description)).toContain('Use zod for the schemas');
    // reading it (each read logs its delivery) changes neither its name nor its hash: the hash an agent
    // acknowledges is still the latest, and the `baton details` hint it got still names the briefing it read
    const first = await client.deliverContext(ref, 'mcp');
    const second = await client.deliverContext(ref, 'mcp');
    expect([first.snapshot_id, first.hash]).toEqual([live.snapshot_id, live.hash]);
    expect([second.snapshot_id, second.hash]).toEqual([live.snapshot_id, live.hash]);
    expect(await client.acknowledge(ref, first.hash, 'mcp')).toMatchObject({ matches: true });
    expect((await client.context(ref)).snapshot_id, 'nor does its acknowledgement').toBe(live.snapshot_id);
    // a live id this workflow has not reached is another workflow's: said, not answered with an empty list
    await expect(client.details(ref, 'live-999999', 'decisions')).rejects.toThrow(
      /live-999999 is not of workflow wf-\S+, which is at version \d+: name the workflow the context came from with -w/,
    );
    await service.store.close();
  });
});
