/** The last value written for one channel of one thread and namespace: the base of the next delta. */
export interface RecentValue {
  version: string;
  type: string;
  bytes: Uint8Array;
  depth: number;
}

/**
 * The last serialized value of each (thread, namespace, channel) this process wrote, within a byte budget
 * (least recently used out first). A miss only means the next value is stored whole.
 */
export class RecentValues {
  private readonly map = new Map<string, RecentValue>();
  private bytes = 0;

  constructor(private readonly budgetBytes = 64 * 1024 * 1024) {}

  private static key(threadId: string, ns: string, channel: string) {
    return JSON.stringify([threadId, ns, channel]);
  }

  get(threadId: string, ns: string, channel: string): RecentValue | undefined {
    return this.map.get(RecentValues.key(threadId, ns, channel));
  }

  set(threadId: string, ns: string, channel: string, value: RecentValue): void {
    const k = RecentValues.key(threadId, ns, channel);
    const old = this.map.get(k);
    if (old) {
      this.bytes -= old.bytes.length;
      this.map.delete(k);
    }
    if (value.bytes.length > this.budgetBytes / 4) return;
    this.map.set(k, value);
    this.bytes += value.bytes.length;
    for (const [victim, v] of this.map) {
      if (this.bytes <= this.budgetBytes) break;
      this.map.delete(victim);
      this.bytes -= v.bytes.length;
    }
  }

  forgetThread(threadId: string): void {
    const prefix = JSON.stringify([threadId]).slice(0, -1) + ',';
    for (const [k, v] of this.map) {
      if (k.startsWith(prefix)) {
        this.map.delete(k);
        this.bytes -= v.bytes.length;
      }
    }
  }
}
