import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { eventTypes } from '../events/types.ts';
import { Type } from 'typebox';
import { buildApp } from '../app.ts';
import { Envelope } from '../http/envelope.ts';
import { startTestApp, testDeps, type TestApp } from '../testing/app.ts';
import { errorCodes } from './openapi.ts';

/** The OpenAPI document is good enough to generate clients from, and passes redocly's lint. */

const root = new URL('../../../..', import.meta.url).pathname;
let t: TestApp;
let doc: Record<string, any>;
before(async () => {
  t = await startTestApp();
  doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
after(async () => { await t.close(); });

const operations = () => Object.entries(doc.paths as Record<string, Record<string, any>>)
  .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })));

describe('the OpenAPI document', () => {
  it('says how to install the SDK today, from the repository, and that the registry name comes with a release', () => {
    const intro = String(doc.info.description);
    assert.match(intro, /until it is published/);
    assert.match(intro, /npm install <repo>\/packages\/sdk/);
    assert.match(intro, /npm run sdk:pack/);
  });

  it('gives every operation a unique operationId and a tag the top-level list declares', () => {
    const declared = new Set((doc.tags as { name: string; description: string }[]).map((tag) => tag.name));
    const ids = new Set<string>();
    for (const { op, name } of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${name} has an operationId`);
      assert.ok(!ids.has(op.operationId), `${op.operationId} is unique`);
      ids.add(op.operationId);
      assert.ok(op.tags?.length, `${name} has a tag`);
      for (const tag of op.tags) assert.ok(declared.has(tag), `${name}: tag ${tag} is declared`);
    }
    assert.ok(ids.has('listProducts') && ids.has('resendWebhookDelivery') && ids.has('getImport'));
  });

  it('names the envelope and the error body once, and refers to them', () => {
    const text = JSON.stringify(doc);
    assert.ok(doc.components.schemas.Envelope);
    assert.ok(doc.components.schemas.ErrorBody);
    assert.equal(text.match(/"const":"error"/g)?.length, 1, 'the error body is written out once');
    assert.deepEqual(doc.components.schemas.ErrorBody.properties.data.properties.code, { $ref: '#/components/schemas/ErrorCode' });
    assert.ok(errorCodes.includes('idempotency_in_progress') && errorCodes.includes('scope_missing'));
    for (const { op, name } of operations()) {
      const success = Object.entries(op.responses).find(([s]) => s.startsWith('2'))?.[1] as any;
      // Documents (the invoice PDF, an item's file) are the success answers that are not the envelope.
      if (success.content['application/pdf'] || success.content['application/octet-stream']) continue;
      assert.deepEqual(success.content['application/json'].schema.allOf[0], { $ref: '#/components/schemas/Envelope' }, name);
    }
  });

  it('documents every status an operation can answer', () => {
    for (const { op, name, path, method } of operations()) {
      const statuses = Object.keys(op.responses);
      for (const s of ['400', '401', '403', '429']) assert.ok(statuses.includes(s), `${name} documents ${s}`);
      if (path.includes('{')) assert.ok(statuses.includes('404'), `${name} documents 404`);
      if (op.requestBody) for (const s of ['413', '415']) assert.ok(statuses.includes(s), `${name} documents ${s}`);
      if (method !== 'get' && op.requestBody) assert.ok(statuses.includes('409'), `${name} documents 409`);
      for (const s of statuses.filter((x) => !x.startsWith('2'))) {
        assert.match(op.responses[s].$ref, /^#\/components\/responses\//, `${name} ${s} is a named response`);
      }
    }
    assert.ok(doc.paths['/payment-links'].post.responses['503']);
  });

  it('declares the bearer scheme beside the key scheme, and accepts either on every operation', () => {
    assert.equal(doc.components.securitySchemes.ApiKey.name, 'x-service-api');
    assert.deepEqual(doc.components.securitySchemes.BearerAuth, { type: 'http', scheme: 'bearer', description: doc.components.securitySchemes.BearerAuth.description });
    for (const { op, name } of operations()) assert.deepEqual(op.security, [{ ApiKey: [] }, { BearerAuth: [] }], name);
  });

  it('uses the EventType enum wherever an event type appears', () => {
    const ref = { $ref: '#/components/schemas/EventType' };
    assert.deepEqual(doc.components.schemas.EventType.enum, [...eventTypes]);
    assert.deepEqual(doc.paths['/events'].get.parameters.find((p: any) => p.name === 'type').schema, ref);
    assert.deepEqual(doc.paths['/webhooks/deliveries'].get.parameters.find((p: any) => p.name === 'eventType').schema, ref);
    assert.deepEqual(doc.components.schemas.WebhookEndpoint.properties.events.items, ref);
    assert.deepEqual(doc.components.schemas.WebhookDelivery.properties.eventType, ref);
    assert.deepEqual(doc.components.schemas.WebhookDeliveryDetail.properties.eventType, ref);
    assert.deepEqual(doc.paths['/webhooks'].post.requestBody.content['application/json'].schema.properties.events.items, ref);
    assert.deepEqual(doc.paths['/webhooks/{id}'].patch.requestBody.content['application/json'].schema.properties.events.items, ref);
    assert.deepEqual(doc.paths['/webhooks/test'].post.requestBody.content['application/json'].schema.properties.eventType, ref);
    assert.deepEqual(doc.components.schemas.Event, { $ref: '#/components/schemas/WebhookEvent', description: doc.components.schemas.Event.description });
  });

  it('types import records as objects', () => {
    for (const path of ['/hubs/{hubID}/members/import', '/products/{id}/customers/import']) {
      assert.deepEqual(doc.paths[path].post.requestBody.content['application/json'].schema.properties.records.items, { $ref: '#/components/schemas/ImportRecord' });
    }
    assert.deepEqual(doc.components.schemas.ImportRecord.required, ['fullName', 'email']);
  });

  it('has a webhooks section with one POST per event type, its body the typed delivery', () => {
    assert.deepEqual(Object.keys(doc.webhooks), [...eventTypes]);
    for (const type of eventTypes) {
      const ref = doc.webhooks[type].post.requestBody.content['application/json'].schema.$ref as string;
      const body = doc.components.schemas[ref.split('/').pop()!];
      assert.equal(body.properties.type.const, type);
      assert.deepEqual(body.required, ['id', 'type', 'created', 'data']);
      assert.ok(body.properties.data.$ref, `${type} data is a named shape`);
    }
    assert.equal(doc.components.schemas.WebhookEvent.discriminator.propertyName, 'type');
    assert.equal(doc.components.schemas.WebhookEvent.oneOf.length, eventTypes.length);
  });

  it('shows a curl and an SDK sample for every operation', () => {
    for (const { op, name } of operations()) {
      const samples = op['x-codeSamples'] as { lang: string; label: string; source: string }[];
      assert.match(samples.find((s) => s.label === 'curl')?.source ?? '', /^curl /m, name);
      assert.match(samples.find((s) => s.label === 'SDK')?.source ?? '', /client\.[a-zA-Z.]+\(/, name);
    }
  });

  it('shows a request example for every body, a success example for every answer, and the error envelope for every error', () => {
    const missing: string[] = [];
    for (const { op, name } of operations()) {
      const request = op.requestBody?.content?.['application/json'];
      if (request && !Object.values(request.examples ?? {}).some((e: any) => e.value !== undefined)) missing.push(`${name}: request example`);
      const [status, success] = Object.entries(op.responses).find(([s]) => s.startsWith('2')) as [string, any];
      const media = success.content?.['application/json'];
      if (media) {
        const value = (Object.values(media.examples ?? {})[0] as any)?.value;
        if (value?.status !== 'success' || value.data === undefined || typeof value.message !== 'string') missing.push(`${name}: ${status} example with the envelope`);
      }
    }
    // redocly's lint (below) checks every example against its schema; this checks that there are examples.
    assert.deepEqual(missing, [], 'an operation without examples: give its TypeBox shape an `examples` annotation, or check docs/examples.ts can make one');
    for (const [name, response] of Object.entries(doc.components.responses as Record<string, any>)) {
      const value = (Object.values(response.content['application/json'].examples) as any[])[0].value;
      assert.equal(value.status, 'error', name);
      assert.ok(errorCodes.includes(value.data.code), `${name}: ${value.data.code} is an error code`);
      assert.match(value.data.requestId, /^req_/, name);
    }
    assert.deepEqual(doc.components.responses.BadRequest.content['application/json'].examples.BadRequest.value.data.details, [{ field: 'title', message: 'must not be empty' }]);
  });

  it('makes examples with realistic values: ids with their prefix, the same id for the same object, emails, times', () => {
    const product = doc.paths['/products/{id}'].get.responses['200'].content['application/json'].examples.success.value.data;
    assert.match(product.id, /^prod_[A-Za-z0-9_-]{20}$/);
    assert.match(product.tiers[0].id, /^tier_/);
    assert.equal(product.tiers[0].itemIDs[0], product.items[0].id, 'a tier names the item the example shows');
    assert.match(product.createdAt, /^\d{4}-\d\d-\d\dT/);
    const member = doc.paths['/hubs/{hubID}/members/{id}'].get.responses['200'].content['application/json'].examples.success.value.data;
    assert.match(member.email, /^[^@\s]+@example\.com$/);
    const list = doc.paths['/transactions'].get.responses['200'].content['application/json'].examples.success.value;
    assert.equal(list.message, 'Transactions retrieved');
    assert.equal(list.data.hasMore, false);
    assert.match(list.data.items[0].txref, /^txn_/);
    const curl = doc.paths['/hubs/{hubID}/members/{id}'].get['x-codeSamples'].find((s: any) => s.label === 'curl').source as string;
    assert.match(curl, /^API_KEY=svc_test_…/m);
    assert.match(curl, /^HUB_ID=hub_/m);
    assert.match(curl, new RegExp(`"${doc.servers[0].url}/hubs/\\$HUB_ID/members/\\$ID"`));
  });

  it('shows objects in good order: no failure reason on a succeeded delivery or an active endpoint', () => {
    const example = (path: string, method = 'get') => doc.paths[path][method].responses['200'].content['application/json'].examples.success.value.data;
    const delivery = example('/webhooks/deliveries/{id}');
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.failureReason, undefined);
    assert.equal(delivery.attemptLog[0].responseCode, 200);
    assert.equal(delivery.attemptLog[0].error, undefined);
    const endpoint = example('/webhooks/{id}');
    assert.equal(endpoint.status, 'active');
    assert.equal(endpoint.disabledReason, undefined);
  });

  it('shows a delivery example for every event type in the webhooks section', () => {
    for (const type of eventTypes) {
      const examples = doc.webhooks[type].post.requestBody.content['application/json'].examples;
      const value = examples[type].value;
      assert.equal(value.type, type);
      assert.match(value.id, /^evt_/);
      assert.ok(value.data && typeof value.data === 'object', type);
    }
    assert.equal(doc.webhooks['payout.settled'].post.requestBody.content['application/json'].examples['payout.settled'].value.data.currency, 'USD');
  });

  it('lifts a route\'s own TypeBox `examples` into its media types, and makes them up for a route that gives none', async () => {
    const probe = await buildApp(testDeps(t.db, { config: { publicUrl: 'http://x' } }));
    const Coupon = Type.Object({ id: Type.String(), code: Type.String(), percentOff: Type.Integer({ minimum: 1, maximum: 100 }), createdAt: Type.String({ format: 'date-time' }) },
      { $id: 'ProbeCoupon', examples: [{ id: 'cpn_spring', code: 'SPRING25', percentOff: 25, createdAt: '2026-03-01T00:00:00.000Z' }] });
    const CouponBody = Type.Object({ code: Type.String({ minLength: 3 }), percentOff: Type.Integer({ minimum: 1, maximum: 100 }) }, { examples: [{ code: 'SPRING25', percentOff: 25 }] });
    const config = { auth: { scope: 'products:write' as const } };
    probe.post('/api/v1/probe-coupons', { schema: { summary: 'Create a coupon', tags: ['Products'], body: CouponBody, response: { 200: Envelope(Coupon) } }, config }, async () => undefined);
    probe.post('/api/v1/probe-bookings', {
      schema: { summary: 'Create a booking', tags: ['Products'], body: Type.Object({ email: Type.String({ format: 'email' }), startsAt: Type.String({ format: 'date-time' }) }),
        response: { 200: Envelope(Type.Object({ id: Type.String(), email: Type.String({ format: 'email' }), seats: Type.Integer({ minimum: 1 }) }, { $id: 'ProbeBooking' })) } },
      config,
    }, async () => undefined);
    await probe.ready();
    const probed = (await probe.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    await probe.close();
    const coupons = probed.paths['/probe-coupons'].post;
    assert.deepEqual(coupons.requestBody.content['application/json'].examples.request.value, { code: 'SPRING25', percentOff: 25 });
    assert.deepEqual(coupons.responses['200'].content['application/json'].examples.success.value,
      { status: 'success', message: 'Coupon created', data: { id: 'cpn_spring', code: 'SPRING25', percentOff: 25, createdAt: '2026-03-01T00:00:00.000Z' } });
    const bookings = probed.paths['/probe-bookings'].post;
    const body = bookings.requestBody.content['application/json'].examples.request.value;
    assert.match(body.email, /@example\.com$/);
    assert.ok(!Number.isNaN(Date.parse(body.startsAt)));
    const booked = bookings.responses['200'].content['application/json'].examples.success.value.data;
    assert.ok(booked.seats >= 1 && typeof booked.id === 'string' && booked.email.includes('@'));
    assert.match(bookings['x-codeSamples'].find((s: any) => s.label === 'curl').source, /"startsAt"/);
  });

  it('passes redocly lint with no errors or warnings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc, null, 2));
      const { stdout, stderr } = await promisify(execFile)(join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'stylish'], { cwd: root })
        .catch((e: { stdout: string; stderr: string }) => assert.fail(`redocly lint failed:\n${e.stdout}\n${e.stderr}`));
      assert.doesNotMatch(`${stdout}\n${stderr}`, /warning|error/i, `${stdout}\n${stderr}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
