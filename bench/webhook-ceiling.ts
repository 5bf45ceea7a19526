/**
 * The delivery ceiling, run as a child process like a worker (bench/webhooks.ts forks it): a bare
 * loop that POSTs the bench's delivery bodies to the bench's receivers with no database, at a
 * worker's concurrency (WEBHOOK_CONCURRENCY, 64), over node:http with keep-alive. What the
 * receivers count from it is the most this machine can deliver to them; the worker's burst drain
 * is reported as a fraction of it.
 *
 * Its CPU time for the sending (after start-up) goes to the parent in a message, `{ cpuMs }`.
 *
 *   node bench/webhook-ceiling.ts <count> <concurrency> <url>...
 */
import http from 'node:http';
import { benchEventData } from './webhook-event.ts';
import { deliveryBody } from '../packages/server/src/webhooks/delivery.ts';
import { deliveryHeaders } from '../packages/server/src/webhooks/signing.ts';
import { newId } from '../packages/server/src/ids.ts';

const [count, concurrency] = process.argv.slice(2, 4).map(Number);
const urls = process.argv.slice(4).map((u) => new URL(u));
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
// The same headers as a delivery's, signed once: the ceiling leaves out the signing too.
const headers = deliveryHeaders(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, 'evt_ceiling', '{}');

const post = (url: URL, body: string) => new Promise<void>((resolve, reject) => {
  const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
    res.resume();
    res.on('end', resolve);
  });
  req.on('error', reject);
  req.end(body);
});

const cpuFrom = process.cpuUsage();
let next = 0;
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < count) {
    const i = next++;
    const body = deliveryBody({ id: newId('evt'), type: 'member.joined', created: new Date(), data: benchEventData() });
    await post(urls[i % urls.length], body);
  }
}));
agent.destroy();
const cpu = process.cpuUsage(cpuFrom);
process.send?.({ cpuMs: (cpu.user + cpu.system) / 1000 });
