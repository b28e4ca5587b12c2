import { hostname as osHostname } from 'node:os';
import type { LeaseHolder, LeaseKind, ProcessPorts } from '../../service/runtime/ownership.js';
import {
  goneWithin,
  ownerId,
  ownerLiveness,
  processLiveness,
  processStartTime,
} from '../process-identity.js';

/** The processes of this host, by pid plus start time: who this process is, and whether another one is alive. */
export function localProcessPorts(hostname = osHostname()): ProcessPorts {
  const start = processStartTime(process.pid);
  return {
    hostname,
    holder: (kind: LeaseKind, command: string): LeaseHolder => ({
      owner: ownerId(hostname),
      host: hostname,
      pid: process.pid,
      pid_start_time: start,
      kind,
      command,
    }),
    liveness: (p) =>
      p.pid === null ? 'unknown' : ownerLiveness({ host: p.host, pid: p.pid, start: p.start }, hostname),
    async stop(pid, startTime, graceMs) {
      // Only a process whose identity matches is signalled: a reused pid is someone else's.
      if (processLiveness(pid, startTime) !== 'alive') return processLiveness(pid, startTime) === 'dead';
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone meanwhile
      }
      if (await goneWithin(pid, startTime, graceMs)) return true;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
      return goneWithin(pid, startTime, 5_000);
    },
  };
}
