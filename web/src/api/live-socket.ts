import { sayUnauthorized } from './api-client.js';
import type { LiveMessage, SubscriptionReset } from './types.js';

/** The close code the server gives a socket whose token was rotated away. */
const POLICY_VIOLATION = 1008;

export type LiveState = 'connecting' | 'live' | 'offline';

export interface LiveOptions {
  token: string;
  /** Only this workflow's events; all workflows when absent. */
  workflowId?: string;
  onEvent: (m: LiveMessage) => void;
  onState: (s: LiveState) => void;
  /** The log was rebuilt or replaced behind the client's back: every view must be fetched again. */
  onReset?: (m: SubscriptionReset) => void;
}

/**
 * The WebSocket `/ws` with reconnection: each reconnect passes `since=<last position seen>`, so the server replays
 * what was missed first and nothing is lost (README "Live events"). A `subscription.reset` (that position is beyond
 * the end of a rebuilt log) moves the last position back to the log's end and calls `onReset`. Returns a function
 * that closes it for good.
 */
export function openLiveSocket(o: LiveOptions): () => void {
  let last: number | null = null;
  let ws: WebSocket | null = null;
  let stopped = false;
  let retry = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    if (stopped) return;
    const q = new URLSearchParams({ token: o.token });
    if (o.workflowId) q.set('workflow', o.workflowId);
    if (last !== null) q.set('since', String(last));
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    o.onState('connecting');
    ws = new WebSocket(`${scheme}://${location.host}/ws?${q}`);
    ws.onopen = () => {
      retry = 0;
    };
    ws.onmessage = (ev) => {
      let m: LiveMessage;
      try {
        m = JSON.parse(String(ev.data)) as LiveMessage;
      } catch {
        return;
      }
      if (m.type === 'subscription.reset') {
        // Our last position is beyond the end of the log: take the server's end as ours, or every later event
        // (numbered from there) would look like one already seen.
        const reset = m as unknown as SubscriptionReset;
        last = reset.position;
        o.onReset?.(reset);
        return;
      }
      if (m.type === 'subscription.caught_up') {
        if (typeof m.position === 'number') last = Math.max(last ?? 0, m.position);
        o.onState('live');
        return;
      }
      if (typeof m.position === 'number') {
        if (last !== null && m.position <= last) return;
        last = m.position;
      }
      o.onEvent(m);
    };
    ws.onclose = (ev) => {
      ws = null;
      if (stopped) return;
      o.onState('offline');
      if (ev.code === POLICY_VIOLATION) {
        // the server's token was rotated: ask for the new one (a new token opens a new socket)
        stopped = true;
        sayUnauthorized();
        return;
      }
      const delay = Math.min(5000, 500 * 2 ** retry++);
      timer = setTimeout(connect, delay);
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    ws?.close();
  };
}
