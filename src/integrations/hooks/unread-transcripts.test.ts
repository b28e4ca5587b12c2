import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/git-repo.js';
import { hookLogPath, readHookLog, writeHookLog, type TranscriptSeen } from './hook-log.js';
import { keepReadMark, sizeText, unreadTranscripts, type FollowedStatus } from './unread-transcripts.js';

const minutes = (n: number) => n * 60_000;

function setup(
  o: { size?: number; writtenAgo?: number; seen?: Partial<TranscriptSeen>; imported?: boolean } = {},
) {
  const home = tempDir('baton-home-');
  const worktree = tempDir('baton-wt-');
  const path = join(tempDir('baton-transcript-'), 'a1b2c3d4-0000-4000-8000-000000000001.jsonl');
  writeFileSync(path, 'x'.repeat(o.size ?? 300));
  const written = new Date(Math.floor(Date.now() / 1000) * 1000 - (o.writtenAgo ?? minutes(5)));
  utimesSync(path, written, written);
  if (o.seen)
    writeHookLog(hookLogPath(home, worktree), {
      version: 1,
      worktree,
      events: {},
      transcripts: {
        [path]: {
          bytes: 100,
          workflow_id: 'wf-1',
          at: new Date().toISOString(),
          source: 'claude-code',
          ...o.seen,
        },
      },
    });
  const status: FollowedStatus = {
    workflow: { id: 'wf-1', status: 'in_progress', worktree },
    imports:
      o.imported === false ? {} : { s1: { format: 'claude-code-transcript', path, through_byte: 100 } },
  };
  return { home, path, status, written };
}

/** This process as a hook would record it, and as one that exited (the same id, another start). */
function me() {
  const started = Number(readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]);
  return { running: { pid: process.pid, started }, gone: { pid: process.pid, started: started + 1 } };
}

describe('unreadTranscripts: a followed transcript that grew since Baton last read it, with no agent at work on it', () => {
  it('is said once nothing wrote it for a minute, with how much, when, and the command that reads it', () => {
    const { home, path, status, written } = setup();
    expect(unreadTranscripts(status, home)).toEqual([
      {
        path,
        agent: 'claude-code',
        workflow_id: 'wf-1',
        read_through: 100,
        size: 300,
        grown_bytes: 200,
        written_at: written.toISOString(),
        why: 'no agent seen at work on it',
        command: `baton import -w wf-1 ${path}`,
      },
    ]);
  });

  it('is not said while it is being written (an agent at work), nor when it did not grow, nor of a finished workflow', () => {
    const live = setup({ writtenAgo: 5_000 });
    expect(unreadTranscripts(live.status, live.home)).toEqual([]);
    const same = setup({ size: 100 });
    expect(unreadTranscripts(same.status, same.home)).toEqual([]);
    const done = setup();
    expect(
      unreadTranscripts(
        { ...done.status, workflow: { ...done.status.workflow, status: 'completed' } },
        done.home,
      ),
    ).toEqual([]);
  });

  it('counts what a hook read on from (no entry moved the import mark), and a transcript only the hooks saw', () => {
    const readOn = setup({ seen: { bytes: 300 } });
    expect(unreadTranscripts(readOn.status, readOn.home)).toEqual([]);
    const seenOnly = setup({ imported: false, seen: { bytes: 120 } });
    expect(unreadTranscripts(seenOnly.status, seenOnly.home)).toMatchObject([
      { read_through: 120, grown_bytes: 180 },
    ]);
  });

  it("leaves what the agent wrote as its Stop's hook finished (its bookkeeping), not what it wrote later", () => {
    const at = (ago: number) => new Date(Date.now() - ago).toISOString();
    const settled = setup({ seen: { turn_ended: true, at: at(minutes(5) + 2_000) } });
    expect(unreadTranscripts(settled.status, settled.home)).toEqual([]);
    const later = setup({ seen: { turn_ended: true, at: at(minutes(8)) } });
    expect(unreadTranscripts(later.status, later.home)).toHaveLength(1);
    const ended = setup({ writtenAgo: 1_000, seen: { ended: true, at: at(minutes(3)) } });
    expect(unreadTranscripts(ended.status, ended.home)).toMatchObject([{ why: 'its conversation ended' }]);
  });

  it.runIf(process.platform === 'linux')(
    'looks at the agent process its hooks recorded: running, it is at work (a long tool call writes nothing); gone, said at once',
    () => {
      const running = setup({ writtenAgo: minutes(12), seen: { agent_process: me().running } });
      expect(unreadTranscripts(running.status, running.home)).toEqual([]);
      const gone = setup({ writtenAgo: 1_000, seen: { agent_process: me().gone } });
      expect(unreadTranscripts(gone.status, gone.home)).toMatchObject([
        { why: `its agent (process ${process.pid}) no longer runs`, grown_bytes: 200 },
      ]);
    },
  );

  it.runIf(process.platform === 'linux')(
    'is said while its agent runs when its hooks could not reach the store (an outage): no hook reads it until one does',
    () => {
      const since = new Date(Date.now() - 2_000).toISOString();
      // written just now, right after a Stop that read it, by an agent that runs: all of it was at work
      const out = setup({
        writtenAgo: 1_000,
        seen: { agent_process: me().running, turn_ended: true, missed_since: since },
      });
      expect(unreadTranscripts(out.status, out.home)).toMatchObject([
        {
          why: `its hooks could not reach Baton's store since ${since.slice(0, 16).replace('T', ' ')} UTC; the next one that reaches it reads it`,
          grown_bytes: 200,
        },
      ]);
      // nothing grew since it was last read: nothing to say
      const same = setup({ size: 100, seen: { agent_process: me().running, missed_since: since } });
      expect(unreadTranscripts(same.status, same.home)).toEqual([]);
    },
  );

  it('keepReadMark keeps how far a command read a followed transcript, forward only, and nothing of another file', () => {
    const { home, path, status } = setup({ seen: { bytes: 100 } });
    expect(unreadTranscripts(status, home)).toMatchObject([{ read_through: 100 }]);
    keepReadMark(status, home, path, 50);
    expect(unreadTranscripts(status, home)).toMatchObject([{ read_through: 100 }]);
    keepReadMark(status, home, '/elsewhere/other.jsonl', 900);
    expect(
      Object.keys(
        readHookLog(hookLogPath(home, status.workflow.worktree!), status.workflow.worktree!).transcripts,
      ),
    ).toEqual([path]);
    expect(keepReadMark(status, home, path, 300)).toBeNull();
    expect(unreadTranscripts(status, home)).toEqual([]);
  });

  it('keepReadMark says, and does not throw, when the hook log is held by a hook that does not let go', () => {
    const { home, path, status } = setup({ seen: { bytes: 100 } });
    const log = hookLogPath(home, status.workflow.worktree!);
    // a live holder (this very process) that keeps it
    writeFileSync(
      `${log}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), token: 't' }),
    );
    expect(keepReadMark(status, home, path, 300)).toMatch(
      new RegExp(
        `^could not note in the hook log ${log} how far ${path} was read \\(.*is locked by .*\\): its last lines may be said unread again$`,
      ),
    );
    expect(unreadTranscripts(status, home)).toMatchObject([{ read_through: 100 }]);
  });

  it('says a size in bytes, KB or MB', () => {
    expect([sizeText(1), sizeText(900), sizeText(12_800), sizeText(3 * 1048576)]).toEqual([
      '1 byte',
      '900 bytes',
      '12.5 KB',
      '3.0 MB',
    ]);
  });
});
