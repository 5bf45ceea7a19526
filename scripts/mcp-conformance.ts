/**
 * Runs the MCP conformance suite (@modelcontextprotocol/conformance) against a started server:
 * embedded mode (PGlite), a Plus brand, and an access token obtained through the real OAuth flow
 * (dynamic registration, PKCE, the consent screen posted as the signed-in creator, the token
 * endpoint). The runner sends no token, so a small loopback proxy in front adds it. Exits 1 on
 * any failed check. Run with the project's Node 24: `npx node scripts/mcp-conformance.ts`.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { authorizeAsCreator, startOAuthServer } from '../packages/server/src/testing/oauth.ts';

const scenarios = ['server-initialize', 'ping', 'tools-list'];
const root = join(import.meta.dirname, '..');

const server = await startOAuthServer();
let proxy: ReturnType<typeof createServer> | undefined;
let failed = false;
try {
  const { cookie } = await server.signUp('plus');
  const redirectUri = 'http://127.0.0.1:33418/callback';
  const reg = await fetch(`${server.url}/oauth/reg`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'MCP conformance', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
  });
  if (reg.status !== 201) throw new Error(`registration answered ${reg.status}: ${await reg.text()}`);
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const authUrl = `${server.url}/oauth/auth?${new URLSearchParams({
    client_id: clientId, response_type: 'code', redirect_uri: redirectUri, state: 'conformance', scope: 'products:read customers:read transactions:read',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', resource: `${server.url}/api/mcp`,
  })}`;
  const { redirect } = await authorizeAsCreator(server, authUrl, cookie, { decision: 'approve', mode: 'test' });
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`no authorization code: ${redirect.href}`);
  const tokenRes = await fetch(`${server.url}/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
  });
  const token = ((await tokenRes.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`the token endpoint answered ${tokenRes.status}`);

  // The proxy: every request to the server, with the bearer token added.
  const target = new URL(server.url);
  proxy = createServer((req, res) => {
    const upstream = request({
      host: target.hostname, port: target.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: target.host, authorization: `Bearer ${token}` },
    }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (err) => { res.writeHead(502); res.end(String(err)); });
    req.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/api/mcp`;

  for (const scenario of scenarios) {
    const child = spawn(process.execPath, [join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'), 'server', '--url', proxyUrl, '--scenario', scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => { output += c; });
    child.stderr.on('data', (c: Buffer) => { output += c; });
    const [exitCode] = await once(child, 'close') as [number];
    process.stdout.write(`--- ${scenario} (exit ${exitCode})\n${output}\n`);
    // A check the runner reports as failed fails CI even when its exit code does not say so.
    if (exitCode !== 0 || /\bFAILURE\b|\b[1-9]\d* failed\b/.test(output)) failed = true;
  }
} finally {
  proxy?.close();
  await server.close();
}
if (failed) {
  process.stderr.write('MCP conformance: a check failed (see above).\n');
  process.exitCode = 1;
} else {
  process.stdout.write(`MCP conformance: ${scenarios.join(', ')} passed.\n`);
}
