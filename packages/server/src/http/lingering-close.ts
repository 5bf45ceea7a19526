import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How long, and how much, of a refused body we read and throw away after answering 413. Fastify
 * answers as soon as a body is over the limit and closes the socket while the client is still
 * sending; the client's kernel then gets a reset, which can destroy our 413 before the client
 * reads it (Node's fetch reports "fetch failed"; curl happens to be lucky). Like nginx's
 * lingering close we keep reading, and discard, what the client sends until its body ends, for
 * at most 10 s and 128 MB, then close.
 */
export const lingerLimits = { ms: 10_000, bytes: 128 * 1024 * 1024 };

/**
 * Called when a request's body is refused before it was read. The 413 goes out without
 * `Connection: close`, so Node does not close the socket when the answer is written: it drains
 * the rest of the body itself (the request is "dumped") and the connection may serve the next
 * request. Past the limits above the socket is destroyed.
 */
export function lingerAfterRefusedBody(req: FastifyRequest, reply: FastifyReply) {
  reply.removeHeader('connection');
  const raw = req.raw;
  const socket = raw.socket as (typeof raw.socket | null);
  // app.inject's requests have no socket, or a stand-in that cannot be destroyed (nothing to
  // linger on there); a body already read needs nothing.
  if (!socket || typeof socket.destroy !== 'function' || raw.complete) return;
  const startBytes = socket.bytesRead;
  const started = performance.now();
  const check = setInterval(() => {
    if (raw.complete || socket.destroyed) return stop();
    if (performance.now() - started > lingerLimits.ms || socket.bytesRead - startBytes > lingerLimits.bytes) {
      stop();
      socket.destroy();
    }
  }, 100);
  check.unref();
  const stop = () => {
    clearInterval(check);
    raw.removeListener('end', stop);
    socket.removeListener('close', stop);
  };
  raw.once('end', stop);
  socket.once('close', stop);
}
