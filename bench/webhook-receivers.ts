/**
 * The webhook bench's receivers, run as a child process (bench/webhooks.ts forks it) so that
 * answering deliveries does not compete with the bench's producer for one event loop: `count`
 * HTTP servers on 127.0.0.1 answering 200 to every POST. Each body's event id and the time it
 * arrived are sent to the parent in batches; a repeated id is counted as a duplicate here, and
 * so is every connection opened.
 *
 * Messages from the parent: { reset: true } forgets what was received (between phases).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const count = Number(process.argv[2] ?? 10);
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send!(message);

let seen = new Set<string>();
let duplicates = 0;
// Connections opened since the last reset: a sender that reuses connections opens few.
let connections = 0;
let pending: [string, number][] = [];
let flushing: NodeJS.Timeout | undefined;
const flush = () => {
  flushing = undefined;
  send({ received: pending, duplicates, connections });
  pending = [];
};

const servers: Server[] = [];
for (let i = 0; i < count; i++) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      // The id is the body's first field (deliveryBody); no need to parse the whole event.
      const body = Buffer.concat(chunks).toString('utf8');
      const id = body.slice(7, body.indexOf('"', 7));
      if (seen.has(id)) duplicates++;
      else {
        seen.add(id);
        pending.push([id, at]);
      }
      res.writeHead(200, { 'content-length': 0 }).end();
      flushing ??= setTimeout(flush, 5);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', () => { connections++; });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
}

process.on('message', (message: { reset?: boolean }) => {
  if (message.reset) {
    seen = new Set();
    duplicates = 0;
    connections = 0;
    pending = [];
    send({ resetDone: true });
  }
});
process.on('disconnect', () => {
  for (const s of servers) { s.closeAllConnections(); s.close(); }
});
send({ urls: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`) });
