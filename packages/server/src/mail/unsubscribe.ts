import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Mode } from '../auth/principal.ts';
import type { Db } from '../db/client.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { App } from '../http/app-type.ts';
import { withdrawMarketingConsent } from '../memberships/repository.ts';
import { esc, layout, messagePage, sendPage } from '../pages/html.ts';

/**
 * Unsubscribing from a brand's marketing mail (docs/email.md, Marketing mail). Every marketing
 * message carries `List-Unsubscribe: <PUBLIC_URL/mail/unsubscribe/{token}>` and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): the mail program POSTs to the
 * address with no cookie and no page, and that POST alone turns the consent off. The same address
 * opened in a browser (GET) shows a page with a button, and changes nothing by itself: link
 * scanners and prefetchers follow GET links, and must not unsubscribe anyone.
 *
 * The token is signed rather than stored (HMAC-SHA-256 under a key derived from the server key):
 * it names the brand, the mode and the address, never expires (an unsubscribe link in an old
 * mail must still work), and cannot be made for another address without the key.
 */

export interface UnsubscribeGrant { brandId: string; mode: Mode; email: string }

const keyFor = (serverKey: Buffer) => createHmac('sha256', serverKey).update('mail-unsubscribe-v1').digest();

export function signUnsubscribe(serverKey: Buffer, g: UnsubscribeGrant): string {
  const body = Buffer.from(JSON.stringify([g.brandId, g.mode, g.email.toLowerCase()])).toString('base64url');
  return `${body}.${createHmac('sha256', keyFor(serverKey)).update(body).digest('base64url')}`;
}

export const unsubscribeUrl = (serverKey: Buffer, publicUrl: string, g: UnsubscribeGrant) =>
  `${publicUrl}/mail/unsubscribe/${signUnsubscribe(serverKey, g)}`;

export function openUnsubscribe(serverKey: Buffer, token: string): UnsubscribeGrant | undefined {
  const [body, mac] = token.split('.');
  if (!body || !mac) return undefined;
  const want = createHmac('sha256', keyFor(serverKey)).update(body).digest();
  const got = Buffer.from(mac, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  try {
    const parts: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (!Array.isArray(parts) || parts.length !== 3 || !parts.every((p) => typeof p === 'string')) return undefined;
    const [brandId, mode, email] = parts as [string, string, string];
    if (mode !== 'test' && mode !== 'live') return undefined;
    return { brandId, mode, email };
  } catch {
    return undefined;
  }
}

const invalidLink = () => messagePage('Link not valid', 'This unsubscribe link is not valid. Use the link in the newest mail you got, or reply to that mail and ask.');

export function unsubscribePages(parent: App, { db, secrets, config }: { db: Db; secrets: { webhookKey: Buffer }; config: { publicUrl: string } }) {
  const pages: FastifyPluginAsyncTypebox = async (app) => {
    // RFC 8058's POST is a form (urlencoded, or multipart from some mail programs) whose only field
    // is List-Unsubscribe=One-Click; the address alone says who, so the body is read and ignored.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4 * 1024 }, (_req, _body, done) => done(null, {}));
    const Params = Type.Object({ token: Type.String({ maxLength: 1000 }) });
    const page = (title: string, body: string) => layout(title, `<section class="card"><h1>${esc(title)}</h1>${body}</section>`);

    app.get('/mail/unsubscribe/:token', { schema: { hide: true, params: Params } }, async (req, reply) => {
      const grant = openUnsubscribe(secrets.webhookKey, (req.params as { token: string }).token);
      if (!grant) return sendPage(reply, 404, invalidLink());
      return sendPage(reply, 200, page('Unsubscribe', `<p>Stop news and announcements to ${esc(grant.email)}? Receipts and notices about your purchases still come.</p>
<form method="post" action="${esc(config.publicUrl)}/mail/unsubscribe/${esc((req.params as { token: string }).token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`));
    });

    app.post('/mail/unsubscribe/:token', { schema: { hide: true, params: Params } }, async (req: FastifyRequest, reply) => {
      const grant = openUnsubscribe(secrets.webhookKey, (req.params as { token: string }).token);
      if (!grant) return sendPage(reply, 404, invalidLink());
      await db.transaction((tx) => withdrawMarketingConsent(tx, grant.brandId, grant.mode, grant.email));
      return sendPage(reply, 200, page('You are unsubscribed', `<p>${esc(grant.email)} gets no more news or announcements from this brand. Receipts and notices about your purchases still come.</p>`));
    });
  };
  parent.register(pages);
}
