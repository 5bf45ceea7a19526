import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Mode, Scope } from '../auth/principal.ts';
import { scopes as allScopes } from '../auth/principal.ts';
import { revokeKey } from '../keys/service.ts';
import type { TestApp } from './app.ts';
import { createSession } from './dashboard.ts';
import { createBrand, createKey } from './factories.ts';

export interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As in the route's config: one scope, any of several, or null for any valid key. */
  scope: Scope | Scope[] | null;
  /**
   * Makes a resource owned by `brandId` in `mode` and returns the request that reaches it. Called
   * afresh for every check. `marker` is a string (usually the resource's id) that the owner's
   * response contains and nobody else's may.
   */
  setup(ctx: { t: TestApp; brandId: string; mode: Mode }): Promise<{ url: string; body?: unknown; marker?: string; headers?: Record<string, string> }>;
  /**
   * How another brand's (or mode's) key is answered: `404` for a route about one resource,
   * `hidden` for a list, which answers 200 without the resource in it.
   */
  foreign: 404 | 'hidden' | 'none';
  /** False for the shared catalog (products), which both modes see. */
  modeScoped: boolean;
  okStatus?: number;
  /** The success answer is a document (an invoice PDF or page), not the JSON envelope; errors still are. */
  document?: boolean;
}

/**
 * The auth checks every route gets (STYLE.md, Tests): no key, bad key, revoked key, missing
 * scope, another brand's resource, and a key of the other mode; and the same route through a
 * dashboard session (the owner's works in the session's mode, with the CSRF token on writes; a
 * signed-out one does not).
 */
export function runCommonRouteTests(name: string, c: RouteCase, getApp: () => TestApp) {
  const send = async (key: string | undefined, req: { url: string; body?: unknown; headers?: Record<string, string> }) =>
    getApp().request({ method: c.method, url: req.url, key, headers: req.headers, ...(req.body !== undefined ? { payload: req.body as object } : {}) });
  const owner = async (mode: Mode = 'test', scopes: Scope[] = [...allScopes]) => {
    const t = getApp();
    const brand = await createBrand(t.db);
    const key = await createKey(t.db, brand.id, { mode, scopes });
    return { t, brandId: brand.id, key };
  };
  const expectError = (res: { statusCode: number; json: () => any; headers: Record<string, unknown> }, status: number, code: string) => {
    assert.equal(res.statusCode, status);
    const body = res.json();
    assert.equal(body.status, 'error');
    assert.equal(body.data.code, code);
    assert.equal(typeof body.message, 'string');
    assert.equal(body.data.requestId, res.headers['x-request-id']);
  };

  it(`${name}: answers the owner's key`, async () => {
    const { t, brandId, key } = await owner();
    const req = await c.setup({ t, brandId, mode: 'test' });
    const res = await send(key.key, req);
    assert.equal(res.statusCode, c.okStatus ?? 200, res.body);
    if (!c.document) assert.equal(res.json().status, 'success');
    if (req.marker) assert.ok(res.body.includes(req.marker), 'the owner sees the resource');
  });

  type Session = Awaited<ReturnType<typeof createSession>>;
  const sendAs = (session: Session, req: { url: string; body?: unknown; headers?: Record<string, string> }, csrf = true) => getApp().app.inject({
    method: c.method,
    url: req.url,
    headers: { ...req.headers, cookie: session.cookie, ...(csrf && c.method !== 'GET' ? { 'x-csrf-token': session.csrfToken } : {}) },
    ...(req.body !== undefined ? { payload: req.body as object } : {}),
  });

  it(`${name}: answers the owner's dashboard session`, async () => {
    const t = getApp();
    const brand = await createBrand(t.db);
    const session = await createSession(t.db, brand.id, { mode: 'test' });
    const req = await c.setup({ t, brandId: brand.id, mode: 'test' });
    const res = await sendAs(session, req);
    assert.equal(res.statusCode, c.okStatus ?? 200, res.body);
    if (req.marker) assert.ok(res.body.includes(req.marker), 'the owner sees the resource');
  });

  it(`${name}: refuses a signed-out session${c.method === 'GET' ? '' : ', and a session write without the CSRF token'}`, async () => {
    const t = getApp();
    const brand = await createBrand(t.db);
    const session = await createSession(t.db, brand.id);
    if (c.method !== 'GET') expectError(await sendAs(session, await c.setup({ t, brandId: brand.id, mode: 'test' }), false), 403, 'csrf_failed');
    await t.db.query('DELETE FROM sessions WHERE id = $1', [session.sessionId]);
    expectError(await sendAs(session, await c.setup({ t, brandId: brand.id, mode: 'test' })), 401, 'authentication_required');
  });

  it(`${name}: refuses a request without a key`, async () => {
    const { t, brandId } = await owner();
    expectError(await send(undefined, await c.setup({ t, brandId, mode: 'test' })), 401, 'authentication_required');
  });

  it(`${name}: refuses a malformed or unknown key`, async () => {
    const { t, brandId } = await owner();
    const req = await c.setup({ t, brandId, mode: 'test' });
    expectError(await send('not-a-key', req), 401, 'authentication_required');
    expectError(await send(`svc_test_${'A'.repeat(32)}`, req), 401, 'authentication_required');
  });

  it(`${name}: refuses a revoked key on the next request`, async () => {
    const { t, brandId, key } = await owner();
    const req = await c.setup({ t, brandId, mode: 'test' });
    assert.equal((await send(key.key, req)).statusCode, c.okStatus ?? 200);
    await revokeKey(t.db, t.keyCache, key.id);
    expectError(await send(key.key, await c.setup({ t, brandId, mode: 'test' })), 401, 'authentication_required');
  });

  const accepted = c.scope === null ? [] : [c.scope].flat();
  if (accepted.length) {
    it(`${name}: needs the ${accepted.join(' or ')} scope`, async () => {
      const { t, brandId, key } = await owner('test', allScopes.filter((s) => !accepted.includes(s)));
      const res = await send(key.key, await c.setup({ t, brandId, mode: 'test' }));
      expectError(res, 403, 'scope_missing');
      for (const scope of accepted) assert.match(res.json().message, new RegExp(scope));
    });
    for (const scope of accepted.length > 1 ? accepted : []) {
      it(`${name}: accepts a key holding only ${scope}`, async () => {
        const { t, brandId, key } = await owner('test', [scope]);
        const res = await send(key.key, await c.setup({ t, brandId, mode: 'test' }));
        assert.equal(res.statusCode, c.okStatus ?? 200, res.body);
      });
    }
  }

  if (c.foreign !== 'none') {
    const checkForeign = async (res: Awaited<ReturnType<typeof send>>, marker?: string) => {
      if (c.foreign === 404) return expectError(res, 404, 'not_found');
      assert.equal(res.statusCode, 200);
      if (marker) assert.ok(!res.body.includes(marker), 'the resource is not shown');
    };
    it(`${name}: hides another brand's resource`, async () => {
      const { t, brandId } = await owner();
      const other = await owner();
      const req = await c.setup({ t, brandId, mode: 'test' });
      await checkForeign(await send(other.key.key, req), req.marker);
    });
    if (c.modeScoped) {
      it(`${name}: hides live data from a test key`, async () => {
        const { t, brandId } = await owner('live');
        const testKey = await createKey(t.db, brandId, { mode: 'test' });
        const req = await c.setup({ t, brandId, mode: 'live' });
        await checkForeign(await send(testKey.key, req), req.marker);
      });
      it(`${name}: hides live data from a session in test mode`, async () => {
        const t = getApp();
        const brand = await createBrand(t.db);
        const session = await createSession(t.db, brand.id, { mode: 'test' });
        const req = await c.setup({ t, brandId: brand.id, mode: 'live' });
        await checkForeign(await sendAs(session, req), req.marker);
      });
    }
  }
}
