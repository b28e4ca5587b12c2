import type { Command } from 'commander';
import { LocalClient } from '../client/local-client.js';
import type { BatonClient, Ref } from '../client/baton-client.js';
import { loadSettings, type Settings } from '../config/settings.js';
import type { DiskMirror } from '../disk/index.js';
import { openLocalService, serverClient, type LocalServiceScope } from '../open-baton.js';
import type { BatonService } from '../service/index.js';
import type { Io } from './output.js';
import { conversationWorkflow } from '../integrations/hooks/own-conversation.js';
import { howWorkStarts, type WorktreeSetup } from '../core/how-work-starts.js';

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
  /** The Baton home of the client opened (where the hook logs are). */
  private home: string | null = null;
  /** The settings of the client opened on the local store (null: none opened yet, or a server's client). */
  private local: Settings | null = null;
  /** A command that printed its result but must still exit non-zero (`baton doctor` with problems, `baton run` with a failed task) sets this. */
  exitCode = 0;

  constructor(
    readonly io: Io,
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  globals(cmd: Command): GlobalOptions {
    return cmd.optsWithGlobals<GlobalOptions>();
  }

  /** The settings; `defaults.actor`, who this command acts as when no actor is given (`user`, a person, else). */
  settings(g: GlobalOptions, defaults: { actor?: string } = {}): Settings {
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
      defaults,
    );
  }

  async open(g: GlobalOptions): Promise<BatonClient> {
    return this.openWith(this.settings(g), g.server);
  }

  /**
   * The client on given settings. `worktree` narrows the run folder catch-up to that worktree's workflows (a hook
   * touches nothing else); `exactTokens: false` leaves the tokenizer unloaded (contexts then count about four
   * characters a token, which is what a character limit needs).
   */
  async openWith(settings: Settings, serverUrl?: string, opts: LocalServiceScope = {}): Promise<BatonClient> {
    if (this.client) return this.client;
    this.home = settings.home;
    const remote = serverClient(settings, this.env, this.cwd, serverUrl);
    if (remote) {
      this.client = remote;
      return remote;
    }
    const service = await this.openService(settings, opts);
    this.local = settings;
    this.client = new LocalClient(service, () => service.close());
    return this.client;
  }

  /**
   * The service on the local store, with every adapter (git, tokenizer, process liveness for the crash watch) and
   * the run folder mirror: one recipe for every command, `baton run`, `baton serve` and the hooks included.
   */
  async openService(settings: Settings, opts: LocalServiceScope = {}): Promise<BatonService> {
    const { service, mirror } = await openLocalService(settings, (line) => this.io.err(line), {
      env: this.env,
      ...opts,
    });
    this.mirror = mirror;
    return service;
  }

  /**
   * A workflow named, else the one of the current worktree; run by an agent (its Bash tool, its MCP server) that
   * `baton run` drives (BATON_RUN_WORKFLOW) or whose conversation the hooks tie to a workflow, that one when several
   * are open there.
   */
  ref(workflow: string | undefined): Ref {
    const driven = this.env.BATON_RUN_WORKFLOW || null;
    const following = workflow
      ? null
      : (driven ?? (this.home ? conversationWorkflow(this.home, this.cwd) : null));
    const setup = this.local ? { setup: (worktree: string) => this.setupOf(worktree) } : {};
    return { workflowId: workflow, cwd: this.cwd, ...(following ? { following } : {}), ...setup };
  }

  /**
   * What this machine's files say of a worktree's set-up, for the words of one with no workflow; null over a server:
   * an agent's hooks send to it only when the agent starts with BATON_URL too, which no file here says.
   */
  async setupOf(worktree: string): Promise<WorktreeSetup | null> {
    if (!this.local) return null;
    const { followingAgents } = await import('../integrations/init/doctor.js');
    const followedBy = followingAgents(worktree, this.env);
    if (followedBy.length) return { followedBy, autoTrack: this.local.autoTrack };
    // a worktree added after `baton init` set up the others: said so, as `baton doctor` says it
    const { otherWorktrees } = await import('../integrations/init/worktrees.js');
    const { isSetUp } = await import('../integrations/init/init.js');
    const home = this.local.home;
    const setUpElsewhere = otherWorktrees(worktree).filter((w) => isSetUp(home, w));
    return {
      followedBy,
      autoTrack: this.local.autoTrack,
      ...(setUpElsewhere.length ? { setUpElsewhere } : {}),
    };
  }

  /**
   * How work becomes a workflow where this command runs, for a list with none: `baton init` first, or an agent session
   * as usual once it ran (in words that hold over a server too: `howWorkStarts`).
   */
  async howWorkStartsHere(): Promise<string> {
    const { gitStart, resolveWorktree } = await import('../git/git.js');
    const worktree = await resolveWorktree(this.cwd);
    const repository = (await gitStart(worktree)) !== null;
    return howWorkStarts({ worktree, repository }, repository ? await this.setupOf(worktree) : null);
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
