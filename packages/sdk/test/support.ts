import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp, type TestAppOptions } from '../../server/src/testing/app.ts';

/** Shared by the SDK's tests: the real server on an ephemeral port, and a recorder of every exchange. */

export interface Exchange {
  method: string;
  url: URL;
  requestHeaders: Headers;
  status: number;
  body: unknown;
}

export interface LiveServer {
  t: TestApp;
  baseUrl: string;
  /** Every request an SDK client made through `fetch`, with the parsed answer. */
  exchanges: Exchange[];
  /** A fetch that records into `exchanges`; pass it to new Client({ fetch }). */
  fetch: typeof fetch;
  close(): Promise<void>;
}

export async function startLiveServer(options: TestAppOptions = {}): Promise<LiveServer> {
  const t = await startTestApp(options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const text = await res.clone().text();
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = text; }
    exchanges.push({ method: init?.method ?? 'GET', url: new URL(String(input)), requestHeaders: new Headers(init?.headers), status: res.status, body });
    return res;
  };
  return { t, baseUrl: `http://127.0.0.1:${port}`, exchanges, fetch: recording, close: () => t.close() };
}

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/**
 * Checks recorded answers against the OpenAPI document the server serves: finds each exchange's
 * operation by its path template, follows a `$ref`'d response, and validates the body with Ajv
 * (JSON Schema 2020-12, as OpenAPI 3.1 uses). Returns the problems and the operationIds seen.
 */
export function checkAgainstDocument(doc: Json, exchanges: Exchange[]) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const templates = Object.keys(doc.paths).map((path) => ({
    path,
    regex: new RegExp(`^/api/v1${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: path.replace(/\{[^}]+\}/g, '').length,
  })).sort((a, b) => b.literal - a.literal);
  const problems: string[] = [];
  const seen = new Map<string, Set<number>>();
  for (const x of exchanges) {
    const template = templates.find((tp) => tp.regex.test(x.url.pathname));
    const label = `${x.method} ${x.url.pathname} → ${x.status}`;
    if (!template) { problems.push(`${label}: no such path in the document`); continue; }
    const method = x.method.toLowerCase();
    const op = doc.paths[template.path][method];
    if (!op) { problems.push(`${label}: no ${method} operation`); continue; }
    let response = op.responses[String(x.status)];
    if (!response) { problems.push(`${label}: status ${x.status} is not documented for ${op.operationId}`); continue; }
    let pointer = `openapi.json#/paths/${template.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${x.status}`;
    if (response.$ref) {
      pointer = `openapi.json${response.$ref}`;
      response = doc.components.responses[response.$ref.split('/').pop()];
    }
    if (!seen.has(op.operationId)) seen.set(op.operationId, new Set());
    seen.get(op.operationId)!.add(x.status);
    // A document (an invoice PDF) is not the envelope: its documented media types are what to check.
    if (response.content && !response.content['application/json']) continue;
    const validate = ajv.getSchema(`${pointer}/content/application~1json/schema`) ?? ajv.compile({ $ref: `${pointer}/content/application~1json/schema` });
    if (!validate(x.body)) problems.push(`${label} (${op.operationId}): ${ajv.errorsText(validate.errors)}`);
  }
  return { problems, seen };
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(25);
  }
}
