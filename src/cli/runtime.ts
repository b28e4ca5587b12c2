import type { Command } from 'commander';
import { HttpClient } from '../client/http-client.js';
import { LocalClient } from '../client/local-client.js';
import type { BatonClient, Ref } from '../client/baton-client.js';
import { loadSettings, type Settings } from '../config/settings.js';
import { readToken } from '../config/token-file.js';
import type { DiskMirror } from '../disk/index.js';
import { releaseByRuntime } from '../executors/executor-factory.js';
import { openLocalService } from '../open-baton.js';
import type { BatonService } from '../service/index.js';
import type { Io } from './output.js';

export interface GlobalOptions {
  json?: boolean;
  debug?: boolean;
  home?: string;
  database?: string;
  durability?: string;
  pauseTimeout?: string;
  staleAfter?: string;
  budget?: string;
  server?: string;
  runsDir?: string;
  mirror?: string;
  actor?: string;
}

/** What every command handler gets: its options, a client opened on first use, and where to print. */
export class Runtime {
  private client: BatonClient | null = null;
  private mirror: DiskMirror | null = null;

  constructor(
    readonly io: Io,
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  globals(cmd: Command): GlobalOptions {
    return cmd.optsWithGlobals<GlobalOptions>();
  }

  settings(g: GlobalOptions): Settings {
    return loadSettings(
      {
        home: g.home,
        database: g.database,
        durability: g.durability,
        pauseTimeout: g.pauseTimeout,
        staleAfter: g.staleAfter,
        runsDir: g.runsDir,
        mirror: g.mirror,
        actor: g.actor,
        contextBudget: g.budget,
      },
      this.env,
      this.cwd,
    );
  }

  async open(g: GlobalOptions): Promise<BatonClient> {
    if (this.client) return this.client;
    const settings = this.settings(g);
    const server = g.server ?? this.env.BATON_URL;
    if (server) {
      const token = this.env.BATON_TOKEN || readToken(settings.home);
      this.client = new HttpClient(server, token, this.cwd);
      return this.client;
    }
    const service = await this.openService(settings);
    this.client = new LocalClient(service, () => service.store.close());
    return this.client;
  }

  /** The service on the local store, with every adapter (git, tokenizer) and the run folder mirror: one recipe. */
  async openService(settings: Settings): Promise<BatonService> {
    const { service, mirror } = await openLocalService(
      settings,
      (line) => this.io.err(line),
      releaseByRuntime(this.env, settings.home),
    );
    this.mirror = mirror;
    return service;
  }

  ref(workflow: string | undefined): Ref {
    return { workflowId: workflow, cwd: this.cwd };
  }

  /** Waits for the run folder mirror to write what is queued (before the store closes). */
  async flushMirror(): Promise<void> {
    await this.mirror?.flush();
  }

  async close(): Promise<void> {
    await this.flushMirror();
    await this.client?.close();
    this.client = null;
  }
}
