import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for tests (the `smtp-server` package) on a free loopback port: every message
 * it accepts is parsed (mailparser) and kept with its envelope. It can be stopped and started
 * again on the same port (a mail server that is down, then back), and told to refuse recipients.
 */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Answers every RCPT TO for these addresses with 550 (a permanent refusal). */
  refuse: Set<string>;
  /** Resolves when `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  let server: SMTPServer | undefined;
  let port = 0;
  const waiters = new Set<() => void>();

  const make = () => new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const err = Object.assign(new Error('5.1.1 No such mailbox here'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        received.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          parsed,
        });
        for (const w of [...waiters]) w();
        callback();
      }, callback);
    },
  });

  const listen = async () => {
    server = make();
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.server.address() as { port: number }).port;
  };
  await listen();

  return {
    get url() { return `smtp://127.0.0.1:${port}`; },
    get port() { return port; },
    received,
    refuse,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(received);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} messages, got ${received.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      if (!server) await listen();
    },
  };
}
