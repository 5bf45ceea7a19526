import pino, { type Logger } from 'pino';

/** Never logged, wherever they appear. */
const redact = [
  'req.headers["x-service-api"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-token"]',
  'res.headers["set-cookie"]',
  // Webhook signing secrets, should a body or an object holding one ever be logged.
  'signingSecret', '*.signingSecret', '*.*.signingSecret',
];

/** The process's one logger: the HTTP app, the worker and start-up all write through it. */
export function createLogger(level: string, stream?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: redact, censor: '[redacted]' } };
  return stream ? pino(options, stream as pino.DestinationStream) : pino(options);
}
