import { useLive } from '../live/index.js';

const labels = { connecting: 'connecting', live: 'live', offline: 'offline, reconnecting' } as const;

/** Whether live events are flowing (the WebSocket is connected and caught up). */
export function LiveIndicator() {
  const { state } = useLive();
  return (
    <span className={`live live-${state}`} data-live={state} title="live events (WebSocket /ws)">
      <span className="live-dot" aria-hidden="true" />
      {labels[state]}
    </span>
  );
}
