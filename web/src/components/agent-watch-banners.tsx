import type { Status } from '../api/index.js';
import { TimeAgo } from './time-ago.js';

/**
 * What the server's hooks saw beyond the log, as `baton status` says it: the agents gone without a SessionEnd (a
 * crash, a kill or a quit; cut off in the middle of their turn where the status says so, `cut_off`), and the
 * transcripts that grew since Baton last read them with no agent at work to read them (a store out of reach of their
 * hooks among them), and those gone (deleted or moved) before Baton read what their conversation held, which the
 * briefing lacks (the status's `gone_agents`, `unread_transcripts` and `transcripts_not_read`).
 */
export function AgentWatchBanners({ status }: { status: Status }) {
  return (
    <>
      {status.gone_agents.map((a) => (
        <div
          key={`${a.transcript}/${a.pid}`}
          className="banner banner-warn"
          role="status"
          data-testid="gone-agent"
        >
          <span>
            {a.name} (process {a.pid}) no longer runs,{' '}
            {a.cut_off
              ? 'cut off in the middle of its turn by a crash or a kill (no Stop came after the last prompt)'
              : 'and no SessionEnd came (a crash, a kill or a quit)'}
            :{' '}
            {status.work_over
              ? `${status.work_over}, so the next session here completes this workflow and starts a new one.`
              : `the next session here goes on with this workflow, from its briefing${a.cut_off ? ', told what was cut off' : ''}.`}
          </span>
        </div>
      ))}
      {status.unread_transcripts.map((u) => (
        <div key={u.path} className="banner banner-warn" role="status" data-testid="unread-transcript">
          <span>
            Unread transcript: <code>{u.path}</code> grew by {u.grown_bytes.toLocaleString('en')} bytes since
            Baton last read it (written <TimeAgo at={u.written_at} />, {u.why}): <code>{u.command}</code>{' '}
            reads it, as <code>baton context</code>, the resume context below and the next session start do.
          </span>
        </div>
      ))}
      {status.transcripts_not_read.map((n) => (
        <div key={n.path} className="banner banner-warn" role="status" data-testid="transcript-not-read">
          <span>
            Transcript not read: <code>{n.path}</code>: {n.why}, nor in the resume context below. If it was
            moved, <code>{n.command}</code> reads it from where it is now.
          </span>
        </div>
      ))}
    </>
  );
}
