import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startOAuthServer, type OAuthTestServer } from '../testing/oauth.ts';

/**
 * Defects found by probing the authorization server (issue 27, item 8): what the open
 * registration endpoint must never do, and the answers it gives to bytes it cannot store.
 */
let s: OAuthTestServer;
before(async () => { s = await startOAuthServer(); });
after(async () => { await s.close(); });

const register = (body: unknown) => fetch(`${s.url}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const redirect = 'http://127.0.0.1:33418/callback';

/** A TCP listener on loopback that counts the connections it gets. */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let n = 0;
  const server = createServer((socket) => { n++; socket.destroy(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, connections: () => n };
}

describe('POST /oauth/reg refuses what would make the server fetch a URL', () => {
  for (const field of ['sector_identifier_uri', 'jwks_uri']) {
    it(`refuses ${field} without connecting anywhere`, async () => {
      const target = await listener();
      try {
        const res = await register({ client_name: 'Probe', redirect_uris: [redirect], [field]: `https://127.0.0.1:${target.port}/` });
        assert.equal(res.status, 400);
        const body = await res.json();
        assert.equal(body.error, 'invalid_client_metadata');
        assert.match(body.error_description, new RegExp(field));
        await new Promise((r) => setTimeout(r, 100));
        assert.equal(target.connections(), 0, 'the server connected to the registrant\'s address');
      } finally {
        target.server.close();
      }
    });
  }
});

describe('bytes the database cannot store', () => {
  it('answers 400, not 500, to a NUL or a lone surrogate in client_name', async () => {
    for (const name of ['bad\u0000name', 'bad\ud800name']) {
      const res = await register({ client_name: name, redirect_uris: [redirect] });
      assert.equal(res.status, 400, JSON.stringify(name));
      assert.equal((await res.json()).error, 'invalid_client_metadata');
    }
  });

  it('caps the size of what it stores', async () => {
    const long = await register({ client_name: 'x'.repeat(50_000), redirect_uris: [redirect] });
    assert.equal(long.status, 400);
    assert.match((await long.json()).error_description, /client_name is longer than 200/);
    const many = await register({ client_name: 'Many', redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${3000 + i}/cb`) });
    assert.equal(many.status, 400);
  });

  it('answers GET /oauth/auth?client_id=%00 with the error page, not a 500', async () => {
    for (const id of ['%00', '%ED%A0%80', 'abc%00def']) {
      const res = await fetch(`${s.url}/oauth/auth?client_id=${id}&response_type=code&redirect_uri=${encodeURIComponent(redirect)}`, { redirect: 'manual' });
      assert.equal(res.status, 400, id);
      assert.match(await res.text(), /Cannot connect the app/);
    }
  });
});

describe('unknown paths under /oauth', () => {
  it('answer 404 in the JSON error envelope', async () => {
    for (const [method, path] of [['GET', '/oauth/nope'], ['POST', '/oauth/token/whatever'], ['GET', '/oauth/']]) {
      const res = await fetch(`${s.url}${path}`, { method });
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      const body = await res.json();
      assert.equal(body.status, 'error');
      assert.equal(body.data.code, 'route_not_found');
      assert.equal(body.data.requestId, res.headers.get('x-request-id'));
    }
  });
});
