import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { openLiveSocket, type LiveMessage, type LiveState } from '../api/index.js';

interface LiveValue {
  state: LiveState;
  /** Bumped for every batch of events: any view may have changed. */
  tick: number;
  /** Per workflow: bumped for every batch of events of that workflow. */
  ticks: ReadonlyMap<string, number>;
  /** Bumped whenever the socket (re)connects and has caught up: refetch everything once. */
  connects: number;
  /** The latest events, newest first (at most `keep`). */
  recent: readonly LiveMessage[];
}

const keep = 200;
const empty: LiveValue = { state: 'connecting', tick: 0, ticks: new Map(), connects: 0, recent: [] };
const LiveContext = createContext<LiveValue>(empty);

/**
 * One WebSocket for the whole dashboard (every workflow's events). Events arriving together are applied as one
 * batch (every 100 ms at most), so a burst of CLI commands causes one refetch, not one per event.
 */
export function LiveProvider({ token, children }: { token: string; children: ReactNode }) {
  const [value, setValue] = useState<LiveValue>(empty);

  useEffect(() => {
    let pending: LiveMessage[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      setValue((v) => {
        const ticks = new Map(v.ticks);
        for (const m of batch)
          if (m.workflow_id) ticks.set(m.workflow_id, (ticks.get(m.workflow_id) ?? 0) + 1);
        const recent = [...batch.reverse(), ...v.recent].slice(0, keep);
        return { ...v, tick: v.tick + 1, ticks, recent };
      });
    };
    const close = openLiveSocket({
      token,
      onEvent: (m) => {
        pending.push(m);
        timer ??= setTimeout(flush, 100);
      },
      // A rebuilt log: the feed's events are from the old one, and every view refetches (as after a reconnect).
      onReset: () => setValue((v) => ({ ...v, recent: [], connects: v.connects + 1 })),
      onState: (state) =>
        setValue((v) =>
          state === 'live' && v.state !== 'live'
            ? { ...v, state, connects: v.connects + 1 }
            : { ...v, state },
        ),
    });
    return () => {
      clearTimeout(timer);
      close();
    };
  }, [token]);

  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

export const useLive = () => useContext(LiveContext);

/** A number that changes whenever events of `workflowId` (or of any workflow, without it) arrive. */
export function useLiveTick(workflowId?: string): string {
  const v = useLive();
  const n = workflowId === undefined ? v.tick : (v.ticks.get(workflowId) ?? 0);
  return `${v.connects}:${n}`;
}

/** The latest events of one workflow, newest first. */
export function useLiveEvents(workflowId: string, max = 20): LiveMessage[] {
  const { recent } = useLive();
  return recent.filter((m) => m.workflow_id === workflowId).slice(0, max);
}
