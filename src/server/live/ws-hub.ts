import { sameToken } from '../../config/token-file.js';
import type { EventFeed, PositionedEvent } from '../../service/index.js';
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
/** Live events kept for a subscriber while it replays from the store; beyond this they are read again from there. */
export const MAX_QUEUED = 10_000;

interface Subscriber {
  socket: LiveSocket;
  sub: Subscription;
  /** The last position delivered; live events at or below it are skipped. */
  cursor: number;
  /** While catching up from the store, live events wait here (at most `maxQueued`). */
  queue: PositionedEvent[] | null;
  /** The queue overflowed and was dropped: the replay reads the store again before it goes live. */
  overflowed: boolean;
  generation: number;
  /** The token it connected with (null on a server without one): a rotated token closes its socket. */
  token: string | null;
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
 * is lost or repeated across a reconnect. The queue is bounded: when it overflows it is dropped and the replay
 * reads the store again (every queued event is there). A replay that fails closes the socket with 1011, so the
 * client reconnects with `since`. A `since` beyond the end of the log (the store was rebuilt or replaced) gets
 * `subscription.reset` with the position where the log now ends, and the subscription goes on from there.
 */
export class WsHub {
  private readonly subscribers = new Set<Subscriber>();

  constructor(
    private readonly feed: EventFeed,
    private readonly position: () => number,
    private readonly maxQueued = MAX_QUEUED,
  ) {}

  get size() {
    return this.subscribers.size;
  }

  /** Live events waiting in the queues of subscribers still replaying. */
  get queued() {
    let n = 0;
    for (const s of this.subscribers) n += s.queue?.length ?? 0;
    return n;
  }

  add(socket: LiveSocket, token: string | null = null): Subscriber {
    const s: Subscriber = {
      socket,
      sub: { workflow_id: null, session_number: null },
      cursor: this.position(),
      queue: [],
      overflowed: false,
      generation: 0,
      token,
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
    const current = () => generation === s.generation && this.subscribers.has(s);
    s.sub = sub;
    s.queue = [];
    s.overflowed = false;
    s.cursor = since ?? this.position();
    try {
      if (since !== null && since > this.position()) {
        // The tail may lag behind the store by a poll: only the store says where the log ends.
        const end = await this.feed.latestPosition();
        if (!current()) return;
        if (since > end) {
          s.cursor = end;
          s.socket.send(
            control('subscription.reset', sub, {
              position: end,
              since,
              reason: `position ${since} is beyond the end of the event log (${end}): the store was rebuilt or replaced; refetch your views, events continue after ${end}`,
            }),
          );
        }
      }
      for (;;) {
        const batch = await this.feed.since(s.cursor, PAGE, sub.workflow_id ?? undefined);
        if (!current()) return;
        for (const e of batch) this.deliver(s, e);
        if (!current()) return;
        if (batch.length === PAGE) continue;
        if (!s.overflowed) break;
        s.overflowed = false;
      }
      const queued = s.queue ?? [];
      s.queue = null;
      for (const e of queued) this.deliver(s, e);
      if (current()) s.socket.send(control('subscription.caught_up', sub, { position: s.cursor }));
    } catch (e) {
      if (!current()) return;
      console.error(`baton serve: replaying live events failed: ${(e as Error).message}`);
      s.socket.send(
        control('error', sub, {
          error: {
            code: 'unavailable',
            message: 'replaying events from the store failed; reconnect with ?since=<last position>',
          },
        }),
      );
      s.socket.close(1011, 'replay failed; reconnect with ?since=<last position>');
      this.remove(s);
    }
  }

  /** New events from the tail. */
  broadcast(events: PositionedEvent[]) {
    for (const s of this.subscribers) {
      if (!s.queue) {
        for (const e of events) this.deliver(s, e);
        continue;
      }
      const wanted = events.filter((e) => e.position > s.cursor && matches(s.sub, e));
      if (s.queue.length + wanted.length > this.maxQueued) {
        s.queue = [];
        s.overflowed = true;
      } else s.queue.push(...wanted);
    }
  }

  private deliver(s: Subscriber, e: PositionedEvent) {
    if (e.position <= s.cursor || !this.subscribers.has(s)) return;
    s.cursor = e.position;
    const out: LiveEvent[] = liveEvents(e).filter((l) => matches(s.sub, l));
    for (const l of out) s.socket.send(JSON.stringify(l));
    if (s.socket.bufferedAmount() > MAX_BUFFERED) {
      s.socket.close(1013, 'too far behind; reconnect with ?since=<last position>');
      this.remove(s);
    }
  }

  /**
   * Closes (1008) the sockets opened with a token other than `current`: a token rotated while they were open is
   * refused on them as on every request. The client reconnects with the new token.
   */
  closeStale(current: string) {
    for (const s of this.subscribers) {
      if (s.token === null || sameToken(s.token, current)) continue;
      s.socket.close(
        1008,
        'the server token was rotated: reconnect with the new one (`baton token` prints it)',
      );
      this.remove(s);
    }
  }

  closeAll() {
    for (const s of this.subscribers) s.socket.close(1001, 'server shutting down');
    this.subscribers.clear();
  }
}
