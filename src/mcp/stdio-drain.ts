import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How long a server whose stdin ended still waits for the answers to the requests it read before then. */
const ANSWER_WAIT_MS = 30_000;

/**
 * Resolves once the client is gone and every request read before then was answered: the transport closed, or stdin
 * ended (a client that writes its last call and closes its end, as `echo ... | baton mcp` does, still gets its
 * answer), waiting at most `maxWaitMs` for answers still under way. Call it once the server is connected (it wraps the
 * handlers the server set on the transport).
 */
export function clientGone(
  transport: StdioServerTransport,
  stdin: NodeJS.ReadableStream = process.stdin,
  maxWaitMs = ANSWER_WAIT_MS,
): Promise<void> {
  const asked = new Set<string | number>();
  let ended = false;
  let done: () => void = () => {};
  const gone = new Promise<void>((resolve) => (done = resolve));
  const settleIfAnswered = () => {
    if (ended && asked.size === 0) done();
  };
  const read = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) asked.add(message.id);
    read?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (('result' in message || 'error' in message) && 'id' in message && message.id !== undefined) {
      asked.delete(message.id);
      settleIfAnswered();
    }
  };
  const closed = transport.onclose;
  transport.onclose = () => {
    closed?.();
    done();
  };
  stdin.once('end', () => {
    ended = true;
    settleIfAnswered();
    setTimeout(done, maxWaitMs).unref();
  });
  return gone;
}
