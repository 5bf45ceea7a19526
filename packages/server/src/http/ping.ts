import { Type } from 'typebox';
import type { App } from './app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ok } from './envelope.ts';
import { Mode } from './shapes.ts';

export function pingRoute(app: App) {
  app.get('/ping', {
    schema: {
      summary: 'Check a key',
      description: 'Resolves the brand, mode and scopes of the key. Works for any valid key.',
      tags: ['Account'],
      response: {
        200: Envelope(Type.Object({
          ok: Type.Boolean(),
          brandID: Type.String(),
          mode: Mode,
          scopes: Type.Array(Type.String()),
        })),
      },
    },
    config: { auth: { scope: null }, operation: { id: 'ping', sdk: 'const { brandID, mode, scopes } = await client.ping();' } },
  }, async (req) => {
    const p = principalOf(req);
    return ok('pong', { ok: true, brandID: p.brandId, mode: p.mode, scopes: p.scopes });
  });
}
