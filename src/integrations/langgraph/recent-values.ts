import { encodeDelta, type Delta } from './blob-codec.js';

/** One stored value of a channel, numbered from the last value stored whole (0). */
interface Link {
  n: number;
  version: string;
  bytes: Uint8Array;
}

/**
 * What this process last wrote for one channel of one thread and namespace: the chain of values the last one was
 * stored on (its bases, down to the whole one), last one last.
 */
export interface RecentValue {
  type: string;
  chain: Link[];
}

/** How to store a new value: whole (no delta), or as a delta on version `base`. */
export interface Encoded {
  delta: (Delta & { base: string }) | null;
  /** What to remember once the value is stored. */
  next: RecentValue;
}

const size = (v: RecentValue) => v.chain.reduce((n, link) => n + link.bytes.length, 0);

/**
 * The last serialized values of each (thread, namespace, channel) this process wrote, within a byte budget (least
 * recently used out first). A miss only means the next value is stored whole.
 *
 * Values are stored as skip-deltas (as Subversion does): value n after the last whole one (n = 0) is a delta on
 * value n with its lowest set bit cleared. A value that grows at the end thus costs what it added since that base,
 * a read joins at most log2(n) + 1 rows, and most rows are small: a state of N appended items is read from a
 * handful of rows holding them once, rather than from one row holding them all or a long run of one-item rows.
 */
export class RecentValues {
  private readonly map = new Map<string, RecentValue>();
  private bytes = 0;

  constructor(private readonly budgetBytes = 64 * 1024 * 1024) {}

  private static key(threadId: string, ns: string, channel: string) {
    return JSON.stringify([threadId, ns, channel]);
  }

  encode(
    threadId: string,
    ns: string,
    channel: string,
    version: string,
    type: string,
    bytes: Uint8Array,
  ): Encoded {
    const last = this.map.get(RecentValues.key(threadId, ns, channel));
    const top = last?.chain[last.chain.length - 1];
    if (last && top && last.type === type && top.version !== version) {
      const n = top.n + 1;
      // the chain holds every base n can have: n & (n - 1) is the last value's number with trailing ones cleared
      const baseIndex = last.chain.findIndex((link) => link.n === (n & (n - 1)));
      const base = last.chain[baseIndex]!;
      const delta = encodeDelta(base.bytes, bytes);
      if (delta) {
        const chain = [...last.chain.slice(0, baseIndex + 1), { n, version, bytes }];
        return { delta: { ...delta, base: base.version }, next: { type, chain } };
      }
    }
    return { delta: null, next: { type, chain: [{ n: 0, version, bytes }] } };
  }

  set(threadId: string, ns: string, channel: string, value: RecentValue): void {
    const k = RecentValues.key(threadId, ns, channel);
    const old = this.map.get(k);
    if (old) {
      this.bytes -= size(old);
      this.map.delete(k);
    }
    if (size(value) > this.budgetBytes / 4) return;
    this.map.set(k, value);
    this.bytes += size(value);
    for (const [victim, v] of this.map) {
      if (this.bytes <= this.budgetBytes) break;
      this.map.delete(victim);
      this.bytes -= size(v);
    }
  }

  forgetThread(threadId: string): void {
    const prefix = JSON.stringify([threadId]).slice(0, -1) + ',';
    for (const [k, v] of this.map) {
      if (k.startsWith(prefix)) {
        this.map.delete(k);
        this.bytes -= size(v);
      }
    }
  }
}
