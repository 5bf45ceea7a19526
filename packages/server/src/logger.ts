import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';

/** Never logged, wherever they appear. */
const redact = [
  'req.headers["x-service-api"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-token"]',
  'res.headers["set-cookie"]',
  'req.headers["x-csrf-token"]',
  // Dashboard secrets (passwords, one-time link tokens), should a body holding one ever be logged.
  'password', '*.password', 'newPassword', '*.newPassword', 'currentPassword', '*.currentPassword',
  'token', '*.token', 'csrfToken', '*.csrfToken',
  // Webhook signing secrets, should a body or an object holding one ever be logged.
  'signingSecret', '*.signingSecret', '*.*.signingSecret',
];

/**
 * Query parameters masked in a logged URL: the dashboard's one-time tokens (reset and invite links
 * arrive as page requests), OAuth's codes, and secrets a client sent in a query string by mistake.
 */
const secretParams = /([?&](?:token|code|refresh_token|access_token|id_token|client_secret|password|code_verifier|api_key|apikey|x-service-api|key|secret)=)[^&#]*/gi;

/**
 * Fastify's request serializer, with the query's secrets masked (`secretParams`).
 */
function requestForLog(req: { method?: string; url?: string; headers?: Record<string, unknown>; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? req.url.replace(secretParams, '$1[redacted]') : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** A URL as it may be logged: the query's secrets masked. */
export const urlForLog = (url: string) => url.replace(secretParams, '$1[redacted]');

/** The process's one logger: the HTTP app, the worker and start-up all write through it. */
export function createLogger(level: string, stream?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: redact, censor: '[redacted]' }, serializers: { req: requestForLog } };
  return stream ? pino(options, stream as pino.DestinationStream) : pino(options);
}

/**
 * The logger for a person at a terminal (LOG_FORMAT=pretty, or auto on a TTY): pino-pretty in
 * this process (a stream, not a worker-thread transport, so the bundled server needs no file
 * of it at run time), time of day, level, message, and the fields that matter on one line.
 * pino-pretty is loaded only here: a server writing JSON never pays for it.
 */
export async function createPrettyLogger(level: string, stream: NodeJS.WritableStream = process.stdout): Promise<Logger> {
  const { default: pretty } = await import('pino-pretty');
  const out = pretty({
    destination: stream as never,
    colorize: (stream as { isTTY?: boolean }).isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime,method,url,statusCode',
    singleLine: true,
    // A request line reads `GET /api/v1/products 200 12 ms`, not a message and an object.
    messageFormat: (log, messageKey) => (log.method && log.url
      ? `${String(log.method)} ${String(log.url)} ${String(log.statusCode)} ${String(log.responseTime)} ms`
      : String(log[messageKey] ?? '')),
  });
  return createLogger(level, out);
}

/**
 * Fastify's request log lines for pretty logs: none when a request comes in, and one when it is
 * answered, with what a person scans for (method, URL with secrets masked, status, time).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { method: request.method, url: urlForLog(request.url), statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
