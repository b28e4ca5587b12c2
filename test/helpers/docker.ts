import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import { inject } from 'vitest';
import { batonBin } from './cli.js';
import { dockerClient, sharedDockerEngine } from './docker-engine.js';
import { hermeticEnv } from './hermetic-env.js';
import { until as waitUntil } from './until.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** test/helpers/until.ts, typed for probes that answer null until the thing is there. */
export const until = async <T>(what: string, probe: () => T | Promise<T>, ms = 30_000) =>
  (await waitUntil(what, probe, ms)) as NonNullable<T>;

/** `p`, or an error saying what did not happen (with `detail()`) when it has not settled within `ms`. */
export async function within<T>(p: Promise<T>, ms: number, what: string, detail: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s:\n${detail()}`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The run's Docker engine (DOCKER_HOST), the contract's node-only image, and a client for the tests' checks. */
export async function testDocker(): Promise<{ host: string; image: string; docker: Dockerode }> {
  const run = inject('dockerRun');
  if (!run) throw new Error('no dockerRun folder: is test/setup/docker-global.ts in vitest globalSetup?');
  const engine = await sharedDockerEngine(run.dir);
  return { ...engine, docker: dockerClient(engine.host) };
}

export interface AgentRunRecord {
  shell: boolean;
  node: string;
  uid: number;
  cwd: string;
  token: string | null;
  prompt: number;
}

/**
 * A command agent kept in the worktree (a node script: the image has no shell), so it runs inside the container as
 * it would outside. Each run appends what it saw to `.agent/runs.jsonl`, prints a line, and waits until
 * `.agent/go` exists (`go()` creates it).
 */
export function writeAgent(repo: string) {
  const dir = join(repo, '.agent');
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, 'agent.mjs');
  writeFileSync(
    bin,
    `#!/usr/bin/env node
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
const here = ${JSON.stringify(dir + '/')};
let prompt = '';
try { prompt = readFileSync(0, 'utf8'); } catch {}
appendFileSync(here + 'runs.jsonl', JSON.stringify({
  shell: existsSync('/bin/sh'), node: process.version, uid: process.getuid(), cwd: process.cwd(),
  token: process.env.BATON_EXECUTOR_TOKEN ?? null, prompt: prompt.length,
}) + '\\n');
console.log('agent started');
while (!existsSync(here + 'go')) await new Promise((r) => setTimeout(r, 50));
console.log('agent done');
`,
  );
  chmodSync(bin, 0o755);
  const runsFile = join(dir, 'runs.jsonl');
  return {
    bin,
    go: () => writeFileSync(join(dir, 'go'), ''),
    runs: (): AgentRunRecord[] =>
      existsSync(runsFile)
        ? readFileSync(runsFile, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as AgentRunRecord)
        : [],
  };
}

/** Containers (any state) labelled with the workflow's id. */
export async function containersOf(docker: Dockerode, workflowId: string) {
  return docker.listContainers({
    all: true,
    filters: JSON.stringify({ label: [`baton.workflow_id=${workflowId}`] }),
  });
}

/** Whether the engine still has the container. */
export const exists = (docker: Dockerode, id: string) =>
  docker
    .getContainer(id)
    .inspect()
    .then(
      () => true,
      (e: { statusCode?: number }) => {
        if (e.statusCode === 404) return false;
        throw e;
      },
    );

/** Baton CLI child processes a test starts, killed at the end if they still run. */
export function batonProcesses() {
  const children: ChildProcess[] = [];
  return {
    spawn(args: string[], cwd: string, env: Record<string, string | undefined>) {
      const child = spawn(process.execPath, [batonBin, ...args], {
        cwd,
        env: hermeticEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
      const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
        child.once('close', (code) => resolve({ code, stdout: out, stderr: err })),
      );
      children.push(child);
      return { child, done, output: () => `${out}\n${err}` };
    },
    async killHard(child: ChildProcess) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    },
    async cleanup() {
      for (const c of children.splice(0))
        if (c.exitCode === null && c.signalCode === null) {
          const gone = new Promise((r) => c.once('exit', r));
          c.kill('SIGKILL');
          await gone;
        }
    },
  };
}
