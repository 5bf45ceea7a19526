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

/** The process's one logger: the HTTP app, the worker and start-up all write through it. */
export function createLogger(level: string, stream?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: redact, censor: '[redacted]' }, serializers: { req: requestForLog } };
  return stream ? pino(options, stream as pino.DestinationStream) : pino(options);
}
