import { AsyncLocalStorage } from 'node:async_hooks';
import type { GitPort } from './ports.js';

/**
 * The person a stretch of work is done for, when it is not whoever works where this process runs: a server a team
 * shares answers several people, each from their own clone, and is told who asks by each request (X-Baton-Identity).
 * Their git identity is then what `owner` says of any worktree, so everything that tells whose work is whose (the
 * workflow `current` means, a new workflow's owner, whose clone a pause or a checkpoint reads git state from, a
 * teammate's work pointed to) judges for them, not by the identity the server runs under. Outside `run`, git is asked.
 */
export class AskedBy {
  private readonly asking = new AsyncLocalStorage<{ identity: string | null }>();

  /** Runs `work` for the person whose git identity is `identity` (null: none is set where they are). */
  run<T>(identity: string | null, work: () => T): T {
    return this.asking.run({ identity }, work);
  }

  /** The identity of the person the work is done for (null: none is set where they are); undefined outside `run`. */
  identity(): string | null | undefined {
    return this.asking.getStore()?.identity;
  }

  /** `git`, whose `owner` is the identity of the person asked for, while there is one. */
  gitPort(git: GitPort): GitPort {
    const owner = (dir: string) => {
      const asker = this.asking.getStore();
      return asker ? Promise.resolve(asker.identity) : git.owner(dir);
    };
    return new Proxy(git, {
      get: (target, key, receiver) => (key === 'owner' ? owner : Reflect.get(target, key, receiver)),
    });
  }
}
