// Run by packaging.test.ts inside a fresh project that installed the packed tarball, under each
// runtime (Node 20 and 24, Bun, Deno): pages products, makes a payment link and verifies a real
// delivery and a test-signed one. Prints one JSON line.
import { Client, NotFoundError, signTestWebhook, verifyWebhook } from '@creator-commerce/sdk';

const env = (name) => (typeof process !== 'undefined' ? process.env[name] : globalThis.Deno?.env.get(name));
const input = JSON.parse(env('SMOKE_INPUT'));
const client = new Client({ apiKey: input.apiKey, baseUrl: input.baseUrl });

const ids = [];
for await (const product of client.products.list({ limit: 2 })) ids.push(product.id);
const link = await client.paymentLinks.create(input.paymentLink);
let notFound = false;
try { await client.products.get('prod_missing'); } catch (e) { notFound = e instanceof NotFoundError && e.code === 'not_found'; }

const delivered = await verifyWebhook(input.delivery.body, input.delivery.headers, input.secret);
const signed = await signTestWebhook({ id: 'evt_smoke', type: 'member.joined', created: new Date().toISOString(), data: {} }, input.secret);
const roundTrip = await verifyWebhook(signed.body, new Headers(signed.headers), [input.secret]);
let tampered = '';
try { await verifyWebhook(input.delivery.body + ' ', input.delivery.headers, input.secret); } catch (e) { tampered = e.message; }

const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${process.version}`;
console.log(JSON.stringify({ runtime, products: ids.length, link: link.link, notFound, delivered: delivered.type, roundTrip: roundTrip.id, tampered }));
