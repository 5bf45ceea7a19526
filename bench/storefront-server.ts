/**
 * The server side of the storefront benchmark (bench/storefront.ts), its own process like
 * products-server.ts. One brand with a published product (three tiers, one with places, items,
 * perks) and a checkout link, on the embedded database (or BENCH_DATABASE_URL). Serves:
 *   - the real app: the product page /s/{slug}/p/{id} (from the catalog cache) and the web
 *     checkout /buy/{brand}/{link} (rendered on every request: it reads stock and the link), and the
 *     web checkout of a bookable call with its slot picker (it also reads the open slots);
 *   - the framework ceiling: a bare Fastify route answering the product page's bytes from memory
 *     with the same content type.
 * Prints one JSON line with the paths and ports, then serves until killed.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../packages/server/src/app.ts';
import { testDeps } from '../packages/server/src/testing/app.ts';
import { openPglite, openPostgres } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { loadCatalog } from '../packages/server/src/catalog/load.ts';
import { createBrand, createKey } from '../packages/server/src/testing/factories.ts';

const url = process.env.BENCH_DATABASE_URL;
const db = url ? openPostgres(url) : await openPglite(await mkdtemp(join(tmpdir(), 'bench-storefront-')));
await migrate(db);

const brand = await createBrand(db, { name: 'Bench studio' });
const key = await createKey(db, brand.id, { mode: 'test' });
const ids = await loadCatalog(db, brand.id, { products: [{
  ref: 'workshop', type: 'event', title: 'Ink night: a live workshop', keywords: ['ink', 'workshop'],
  description: 'Three hours of brush pens and ink washes, in the studio or online. All levels welcome.',
  event: { eventType: 'hybrid', venue: 'The Studio, 12 Canal St, Lisbon', dateTime: '2030-05-16T18:30:00.000Z', endDate: '2030-05-16T21:30:00.000Z' },
  items: [
    { ref: 'warmup', type: 'lesson', title: 'Warm-up sketches', duration: 1200 },
    { ref: 'inking', type: 'lesson', title: 'Inking technique', duration: 3600 },
    { ref: 'kit', type: 'addon', title: 'Ink starter kit', isAddon: true, price: { amount: 9, currency: 'USD' } },
  ],
  tiers: [
    { ref: 'pair', name: 'Pair ticket', price: { amount: 50, currency: 'USD' }, noOfTickets: 2, slots: 12, perks: ['Two seats', 'Recording for a week'], items: ['warmup', 'inking'] },
    { ref: 'single', name: 'Single ticket', price: { amount: 30, currency: 'USD' }, discount: { amount: 5 }, items: ['warmup', 'inking'] },
    { ref: 'online', name: 'Online', price: { amount: 15, currency: 'USD' } },
  ],
}] });

const publicUrl = 'http://localhost';
const app = await buildApp(testDeps(db, { config: { logLevel: 'silent', publicUrl } }));
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.server.address() as { port: number }).port;
const headers = { 'x-service-api': key.key, 'content-type': 'application/json' };
const patched = await app.inject({ method: 'PATCH', url: '/api/v1/brand', headers, payload: { slug: 'bench-studio', displayName: 'Bench Studio' } });
if (patched.statusCode !== 200) throw new Error(`PATCH /brand answered ${patched.statusCode}: ${patched.body}`);
const link = await app.inject({ method: 'POST', url: '/api/v1/checkout-links', headers, payload: { items: [{ id: ids.workshop, plan: ids.single }] } });
if (link.statusCode !== 200) throw new Error(`POST /checkout-links answered ${link.statusCode}: ${link.body}`);

// A bookable coaching call (issue 25): its checkout page also lists the open slots of a day, read on every request.
const weekdays = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [{ start: '09:00', end: '17:00' }]]));
const call = await app.inject({ method: 'POST', url: '/api/v1/products', headers, payload: {
  type: 'appointment', title: '1:1 coaching call', tiers: [{ name: 'Call', price: { amount: 40, currency: 'USD' } }],
  availability: { timezone: 'Europe/Lisbon', sessionMinutes: 30, bufferMinutes: 10, weeklyHours: weekdays },
} });
if (call.statusCode !== 200) throw new Error(`POST /products answered ${call.statusCode}: ${call.body}`);
await app.inject({ method: 'PATCH', url: `/api/v1/products/${call.json().data.id}`, headers, payload: { status: 'published' } });
const callLink = await app.inject({ method: 'POST', url: '/api/v1/checkout-links', headers, payload: { items: [{ id: call.json().data.id, plan: call.json().data.tiers[0].id }] } });
if (callLink.statusCode !== 200) throw new Error(`POST /checkout-links answered ${callLink.statusCode}: ${callLink.body}`);
const bookingPath = new URL(callLink.json().data.url).pathname;

const productPath = `/s/bench-studio/p/${ids.workshop}`;
const checkoutPath = new URL(link.json().data.url).pathname;
const real = await app.inject({ method: 'GET', url: productPath });
if (real.statusCode !== 200) throw new Error(`the product page answered ${real.statusCode}`);
const bytes = real.rawPayload;
const contentType = String(real.headers['content-type']);

const bare = Fastify({ logger: false });
bare.get('/framework', async (_req, reply) => reply.type(contentType).send(bytes));
await bare.listen({ port: 0, host: '127.0.0.1' });
const barePort = (bare.server.address() as { port: number }).port;

process.stdout.write(`${JSON.stringify({ appPort, barePort, productPath, checkoutPath, bookingPath, kind: db.kind, bytes: bytes.length })}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await db.close();
  process.exit(0);
});
