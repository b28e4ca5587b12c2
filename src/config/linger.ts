import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection answered before its request body was read waits for the client to stop sending. */
export const LINGER_MS = 5_000;

/**
 * Closes gently the connections whose response went out before the request's body was read (a 413 for a body over
 * `baton serve --max-body` or the executor daemon's limit, a 401 before an upload). Node closes such a connection as
 * soon as the response is written, with the body still coming; the kernel answers a close with unread or still arriving data with a reset, and a client still
 * sending (curl without `Expect: 100-continue`, any client that streams its body) gets the reset, most often before
 * it reads the response (curl says `000`). Web servers close these the lingering way, and so does this: the response
 * is flushed and the server's side shut (FIN), then what the client still sends is read and dropped until it closes
 * its side or `lingerMs` pass (a client that never stops sending is cut off then), and only then is the socket
 * destroyed.
 */
export function lingerOnUnreadBodies(server: Server, lingerMs = LINGER_MS): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    // before Node's own 'finish' listener, which closes the socket (destroySoon) when the response said
    // `Connection: close`; @hono/node-server's drain of an unread body ends with destroySoon too
    res.prependOnceListener('finish', () => {
      if (req.complete || req.socket.destroyed) return;
      const socket = req.socket;
      const own = Object.prototype.hasOwnProperty.call(socket, 'destroySoon');
      const destroySoon = socket.destroySoon;
      socket.destroySoon = () => linger(req, lingerMs);
      // the body read to its end after all (a keep-alive connection's drain): the socket closes as any other again
      req.once('end', () => {
        if (lingering.has(socket)) return;
        if (own) socket.destroySoon = destroySoon;
        else delete (socket as Partial<Socket>).destroySoon;
      });
    });
  });
}

const lingering = new WeakSet<Socket>();

function linger(req: IncomingMessage, lingerMs: number): void {
  const socket = req.socket;
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, lingerMs);
  timer.unref();
  // the client closed its side (it read the answer and stopped), or failed: nothing more comes
  socket.once('end', close);
  socket.once('error', close);
  // what still comes is read by Node's parser and dropped with the request's body (a 'data' listener on the socket
  // would take it from the parser and stall it)
  req.resume();
  // the response is flushed before the FIN
  socket.end();
}
