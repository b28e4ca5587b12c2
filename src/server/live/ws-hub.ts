import type { StoredEvent, Store } from '../../storage/store.js';
import { liveEvents, matches, type LiveEvent, type Subscription } from './live-event.js';

/** The little a subscriber needs from its WebSocket. */
export interface LiveSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
  bufferedAmount(): number;
}

const PAGE = 500;
/** A client this far behind is disconnected (1013, try again later) and catches up with `since` on reconnect. */
const MAX_BUFFERED = 8 * 1024 * 1024;

interface Subscriber {
  socket: LiveSocket;
  sub: Subscription;
  /** The last position delivered; live events at or below it are skipped. */
  cursor: number;
  /** While catching up from the store, live events wait here. */
  queue: StoredEvent[] | null;
  generation: number;
}

const control = (type: string, sub: Subscription, extra: Record<string, unknown>) =>
  JSON.stringify({
    type,
    workflow_id: sub.workflow_id,
    session_number: sub.session_number,
    task_id: null,
    ...extra,
  });

/**
 * Live subscribers. A subscriber that gives `since` first gets every matching event after that position from the
 * store, then the live ones; live events arriving meanwhile are queued and deduplicated by position, so nothing
 * is lost or repeated across a reconnect.
 */
export class WsHub {
  private readonly subscribers = new Set<Subscriber>();

  constructor(
    private readonly store: Store,
    private readonly position: () => number,
  ) {}

  get size() {
    return this.subscribers.size;
  }

  add(socket: LiveSocket): Subscriber {
    const s: Subscriber = {
      socket,
      sub: { workflow_id: null, session_number: null },
      cursor: this.position(),
      queue: [],
      generation: 0,
    };
    this.subscribers.add(s);
    return s;
  }

  remove(s: Subscriber) {
    this.subscribers.delete(s);
  }

  /** (Re)subscribes: replays from `since` (default: now) and then follows live events. */
  async subscribe(s: Subscriber, sub: Subscription, since: number | null) {
    const generation = ++s.generation;
    s.sub = sub;
    s.queue = [];
    s.cursor = since ?? this.position();
    try {
      for (;;) {
        const batch = await this.store.readEventsSince(s.cursor, PAGE, sub.workflow_id ?? undefined);
        if (generation !== s.generation) return;
        for (const e of batch) this.deliver(s, e);
        if (batch.length < PAGE) break;
      }
      const queued = s.queue ?? [];
      s.queue = null;
      for (const e of queued) this.deliver(s, e);
      s.socket.send(control('subscription.caught_up', sub, { position: s.cursor }));
    } catch (e) {
      s.socket.send(control('error', sub, { error: { code: 'internal', message: (e as Error).message } }));
    }
  }

  /** New events from the tail. */
  broadcast(events: StoredEvent[]) {
    for (const s of this.subscribers) {
      if (s.queue) s.queue.push(...events);
      else for (const e of events) this.deliver(s, e);
    }
  }

  private deliver(s: Subscriber, e: StoredEvent) {
    if (e.position <= s.cursor) return;
    s.cursor = e.position;
    const out: LiveEvent[] = liveEvents(e).filter((l) => matches(s.sub, l));
    for (const l of out) s.socket.send(JSON.stringify(l));
    if (s.socket.bufferedAmount() > MAX_BUFFERED) {
      s.socket.close(1013, 'too far behind; reconnect with ?since=<last position>');
      this.remove(s);
    }
  }

  closeAll() {
    for (const s of this.subscribers) s.socket.close(1001, 'server shutting down');
    this.subscribers.clear();
  }
}
