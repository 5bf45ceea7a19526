import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { randomToken } from '../ids.ts';
import { errorEnvelope } from './error-handler.ts';

/**
 * The answers the framework and Node would otherwise give in their own words: a request that
 * runs too long, a process that is shutting down, and the errors Node answers before Fastify sees
 * a request (a slow upload past the request timeout, headers too large, broken HTTP). Every one is
 * the envelope with x-request-id (README, API conventions).
 */

export const newRequestId = () => `req_${randomToken(12)}`;

/** For Fastify's frameworkErrors: a URL that is not valid (bad percent-encoding), in the envelope. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', req.id);
  const known = err.code === 'FST_ERR_BAD_URL'
    ? new AppError('validation_failed', 'The URL is not valid: every % must start an escape such as %20 of valid UTF-8.')
    : new AppError('validation_failed', 'The request could not be routed.');
  return reply.code(400).send(errorEnvelope(req.id, known));
}

/** For Fastify's clientErrorHandler: Node's refusals, written as the envelope on the raw socket. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, error] = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? [408, 'Request Timeout', new AppError('validation_failed', 'The request took too long to arrive; send it again over a faster connection.')]
    : err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', new AppError('validation_failed', 'The request headers are too large (16 KB at most).')]
      : [400, 'Bad Request', new AppError('validation_failed', 'The request is not valid HTTP.')];
  const requestId = newRequestId();
  const body = JSON.stringify(errorEnvelope(requestId, error));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `x-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/**
 * A request whose body has not arrived within `timeoutMs` is answered 408 and its connection
 * closed. A handler that has not answered within `timeoutMs` is answered 503 with Retry-After (its work,
 * bounded by the database's statement_timeout, is abandoned: a transaction still open rolls
 * back). Requests that arrive once the process is shutting down get 503 with Connection: close.
 */
export function installRequestDeadlines(app: FastifyInstance, timeoutMs: number) {
  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  // Answers sent while shutting down close their connection, so keep-alive clients do not hold
  // the process open until the keep-alive timeout (72 s).
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (req, reply, done) => {
    if (closing) {
      reply.header('connection', 'close').header('retry-after', '1');
      throw new AppError('service_unavailable', 'This server is shutting down; send the request again (another server will take it).');
    }
    // A route may give itself a longer deadline (file uploads: UPLOAD_TIMEOUT, docs/files.md).
    const limitMs = (req.routeOptions.config as { deadlineMs?: number } | undefined)?.deadlineMs ?? timeoutMs;
    if (limitMs <= 0) return done();
    const timer = setTimeout(() => {
      if (reply.sent) return;
      if (!req.raw.complete) {
        // The body is still arriving (a slow upload): that is the client's delay, answered 408 as
        // Node's own request timeout would, and the connection closed once the answer is out
        // (Node checks its timeout only every 30 s and would keep reading for as long).
        reply.raw.once('finish', () => req.raw.socket.destroy());
        reply.code(408).header('connection', 'close').send(errorEnvelope(req.id, new AppError('validation_failed',
          `The request took longer than ${limitMs / 1000} s to arrive; send it again over a faster connection.`)));
        return;
      }
      req.log.warn({ url: req.url, timeoutMs: limitMs }, 'request ran past its deadline');
      reply.code(503).header('retry-after', '1').send(errorEnvelope(req.id, new AppError('service_unavailable',
        `The request did not finish within ${limitMs / 1000} s and was stopped; try again.`)));
    }, limitMs);
    timer.unref();
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
}
