import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPostgres } from '../db/client.ts';
import { testDbKind } from '../testing/db.ts';
import { authorizeAsCreator } from '../testing/oauth.ts';
import { freePort, runCli, startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';

/**
 * `npm run cli -- oauth client create`, as a developer runs it next to a running server: through
 * the server in embedded mode (it holds the data folder), on the database directly with
 * PostgreSQL; then the client it made goes through a real authorization with its secret.
 */
let env: Record<string, string>;
let server: ServerProcess;
let cleanup: () => Promise<void>;
before(async () => {
  const port = await freePort();
  if (testDbKind === 'postgres') {
    const schema = `oauthcli_${Math.random().toString(36).slice(2, 10)}`;
    const admin = openPostgres(process.env.TEST_DATABASE_URL!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    env = { DATABASE_URL: urlWithSchema(process.env.TEST_DATABASE_URL!, schema) };
    cleanup = async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.close(); };
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'oauth-cli-'));
    env = { DATA_DIR: dir };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
  // The issuer and resources are PUBLIC_URL's, so the server must know the port it listens on.
  env = { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
  server = await startServerProcess(env);
});
after(async () => {
  await server?.stop();
  await cleanup();
});

const redirectUri = 'https://integration.example.com/oauth/callback';

describe('oauth client create', () => {
  it('registers a confidential client whose secret works at the token endpoint with client_secret_basic', async () => {
    const created = await runCli(['oauth', 'client', 'create', '--name', 'Nightly Sync', '--redirect-uri', redirectUri, '--redirect-uri', 'http://127.0.0.1:8765/cb'], env);
    assert.equal(created.code, 0, created.stderr);
    const client = created.json();
    assert.deepEqual(Object.keys(client).sort(), ['clientId', 'clientSecret', 'name', 'redirectUris', 'tokenEndpointAuthMethod']);
    assert.equal(client.name, 'Nightly Sync');
    assert.deepEqual(client.redirectUris, [redirectUri, 'http://127.0.0.1:8765/cb']);
    assert.equal(client.tokenEndpointAuthMethod, 'client_secret_basic');
    assert.ok(client.clientSecret.length >= 64);

    // A creator on Plus connects it.
    const email = `dev-${randomBytes(5).toString('hex')}@example.com`;
    const signup = await fetch(`${server.url}/dashboard/api/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ name: 'Dana Dev', email, password: 'correct horse battery staple', brandName: 'Dana Studio' }),
    });
    assert.equal(signup.status, 201, await signup.clone().text());
    const cookie = signup.headers.getSetCookie().find((c) => c.startsWith('cc_session='))!.split(';')[0];
    const brandId = ((await signup.json()) as { data: { brand: { id: string } } }).data.brand.id;
    assert.equal((await runCli(['brand', 'plan', brandId, '--plan', 'plus'], env)).code, 0);

    const verifier = randomBytes(32).toString('base64url');
    const authUrl = `${server.url}/oauth/auth?${new URLSearchParams({
      client_id: client.clientId, response_type: 'code', redirect_uri: redirectUri, state: 's1', scope: 'products:read',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', resource: `${server.url}/api/v1`,
    })}`;
    const { redirect, consentHtml } = await authorizeAsCreator(server, authUrl, cookie, { decision: 'approve' });
    assert.match(consentHtml, /Nightly Sync/);
    assert.equal(redirect.origin + redirect.pathname, redirectUri);
    const code = redirect.searchParams.get('code')!;
    assert.ok(code, redirect.href);

    const token = (body: Record<string, string>, auth?: string) => fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: auth } : {}) },
      body: new URLSearchParams(body),
    });
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
    const basic = (secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    // Without its secret (as a public client would), or with a wrong one, the client is refused.
    assert.equal((await (await token({ ...exchange, client_id: client.clientId })).json()).error, 'invalid_client');
    assert.equal((await (await token(exchange, basic('wrong'))).json()).error, 'invalid_client');

    const res = await token(exchange, basic(client.clientSecret));
    const issued = await res.json();
    assert.equal(res.status, 200, JSON.stringify(issued));
    assert.equal(issued.scope, 'products:read');
    const products = await fetch(`${server.url}/api/v1/products`, { headers: { authorization: `Bearer ${issued.access_token}` } });
    assert.equal(products.status, 200);
    assert.ok(!server.output().includes(client.clientSecret), 'the server never logged the secret');
  });

  it('refuses redirect URIs dynamic registration refuses, with the reason', async () => {
    const plainHttp = await runCli(['oauth', 'client', 'create', '--name', 'Bad', '--redirect-uri', 'http://integration.example.com/cb'], env);
    assert.equal(plainHttp.code, 1);
    assert.match(plainHttp.stderr, /https, or http on a loopback address/);
    assert.equal(plainHttp.stdout, '');
    const notUrl = await runCli(['oauth', 'client', 'create', '--name', 'Bad', '--redirect-uri', 'not a url'], env);
    assert.equal(notUrl.code, 1);
    assert.match(notUrl.stderr, /redirect_uris/);
    const none = await runCli(['oauth', 'client', 'create', '--name', 'Bad'], env);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /--redirect-uri/);
  });
});
