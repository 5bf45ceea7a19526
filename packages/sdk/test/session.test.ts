import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSession } from '../../server/src/testing/dashboard.ts';
import { createBrandWithCatalog } from '../../server/src/testing/factories.ts';
import { Client, PermissionError } from '../src/index.ts';
import { startLiveServer, type LiveServer } from './support.ts';

/**
 * Session mode, as the dashboard uses it: no key, the session cookie (a browser sends it by itself;
 * here the test's fetch adds it) and the CSRF token on writes, read when each request is made.
 */

let live: LiveServer;
let session: Awaited<ReturnType<typeof createSession>>;
let brandId: string;

before(async () => {
  live = await startLiveServer();
  const made = await createBrandWithCatalog(live.t.db);
  brandId = made.brand.id;
  session = await createSession(live.t.db, brandId);
});
after(() => live.close());

/** What the browser does for a same-origin request: the cookie goes along. */
const withCookie: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('cookie', session.cookie);
  return live.fetch(input, { ...init, headers });
};

describe('the client in session mode', () => {
  it('reads and writes as the signed-in user, sending the CSRF token on writes only', async () => {
    let token: string | undefined;
    const tiers = [{ name: 'Free', price: { amount: 0, currency: 'USD' } }];
    const client = new Client({ session: { csrfToken: () => token }, baseUrl: live.baseUrl, fetch: withCookie, maxRetries: 0 });
    const ping = await client.ping();
    assert.equal(ping.brandID, brandId);
    assert.equal(ping.mode, 'test');

    await assert.rejects(client.hubs.create({ name: 'Before the session was read', tiers }), (err) => err instanceof PermissionError && err.code === 'csrf_failed');
    token = session.csrfToken;
    const hub = await client.hubs.create({ name: 'Made in session mode', tiers });
    assert.equal((await client.hubs.get(hub.id)).name, 'Made in session mode');

    const sent = live.exchanges.filter((e) => e.url.pathname.startsWith('/api/v1/'));
    const get = sent.find((e) => e.method === 'GET')!;
    assert.equal(get.requestHeaders.get('x-csrf-token'), null);
    assert.equal(get.requestHeaders.get('x-service-api'), null);
    assert.equal(get.requestHeaders.get('authorization'), null);
    assert.equal(sent.filter((e) => e.method === 'POST').at(-1)!.requestHeaders.get('x-csrf-token'), session.csrfToken);
  });

  it('is refused without the session cookie, like any other caller without credentials', async () => {
    const client = new Client({ session: { csrfToken: () => session.csrfToken }, baseUrl: live.baseUrl, fetch: live.fetch, maxRetries: 0 });
    await assert.rejects(client.ping(), (err) => err instanceof Error && 'status' in err && err.status === 401);
  });

  it('says what is missing when it is set up wrongly', () => {
    assert.throws(() => new Client({ session: { csrfToken: () => '' }, apiKey: 'svc_test_x', baseUrl: 'https://x.example' }), /leave out `apiKey`/);
    assert.throws(() => new Client({ session: { csrfToken: () => '' } }), /outside a web page needs `baseUrl`/);
    assert.equal(new Client({ session: { csrfToken: () => '' }, baseUrl: 'https://x.example' }).baseUrl, 'https://x.example/api/v1');
  });
});
