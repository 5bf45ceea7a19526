import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { eventTypes } from '../events/types.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
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
      assert.match(samples.find((s) => s.label === 'curl')?.source ?? '', /^curl /, name);
      assert.match(samples.find((s) => s.label === 'SDK')?.source ?? '', /client\.[a-zA-Z.]+\(/, name);
    }
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
