import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import { Type } from 'typebox';
import { findProfileBySlugOrId, type BrandProfileRow } from '../brands/repository.ts';
import type { FileSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { FileStore } from '../files/store.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { App } from '../http/app-type.ts';
import { toAppError } from '../http/error-handler.ts';
import { invoiceFacts } from '../invoices/service.ts';
import { invoicePdf } from '../invoices/document.ts';
import { messagePage, sendPage } from '../pages/html.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { endMembershipWithProvider } from '../subscriptions/flows.ts';
import { resumeMembership } from '../subscriptions/service.ts';
import { portalPath } from '../brands/profile.ts';
import * as service from './service.ts';
import { cardPage, homePage, signInPage, type PortalFrame } from './templates.ts';
import { openDownload } from './tokens.ts';

/**
 * The buyer portal's pages (docs/portal.md), under /portal/{brand} ({brand}: the slug, or the id
 * of a brand without one). The session cookie is HttpOnly, SameSite=Lax and scoped to the brand's
 * portal path; a form posted from another site is refused by its Origin, as checkout's are.
 * Cancelling and keeping a membership call the same services as POST /memberships/{id}/cancel
 * and …/resume, so the same events and mail follow.
 */
const cookieName = 'cc_portal';
/** What the home page says after an action (?done=…). */
const notices: Record<string, string> = {
  cancelled: 'Your membership will end at the end of the period you paid for. You will not be charged again.',
  kept: 'Your membership continues and renews as before.',
  ended: 'Your membership has ended. We will not try to charge your card again.',
  card: 'Your card is updated. Your next renewal is charged to it.',
  'card-retrying': 'Your card is updated. We are charging it for the renewal that failed now; this page shows the outcome in a moment.',
};
const Slug = Type.String({ minLength: 1, maxLength: 100 });
const Id = Type.String({ minLength: 1, maxLength: 200 });

interface PortalDeps {
  db: Db;
  config: { publicUrl: string; files: FileSettings };
  secrets: { webhookKey: Buffer };
  payments: PaymentProviders;
  store: FileStore;
}

export function portalPages(parent: App, { db, config, secrets, payments, store }: PortalDeps) {
  const ourOrigin = new URL(config.publicUrl).origin;
  const secure = config.publicUrl.startsWith('https:');
  const notFoundPage = (reply: FastifyReply) => sendPage(reply, 404, messagePage('Page not found', 'There is nothing here. The link may be mistyped.'));

  const frameOf = (brand: BrandProfileRow, mode?: 'test' | 'live'): PortalFrame => ({ brand, home: `${config.publicUrl}${portalPath(brand)}`, mode });
  const brandOf = async (slug: string) => findProfileBySlugOrId(db, slug);
  const tokenOf = (req: FastifyRequest) => {
    const header = req.headers.cookie;
    const value = header ? parseCookie(header)[cookieName] : undefined;
    return value && value.length <= 200 ? value : undefined;
  };
  const setCookie = (reply: FastifyReply, brand: BrandProfileRow, value: string, maxAge: number) => reply.header('set-cookie', stringifySetCookie({
    name: cookieName, value, path: portalPath(brand), httpOnly: true, sameSite: 'lax', secure, maxAge,
  }));
  const fromOurPages = (req: FastifyRequest) => !req.headers.origin || req.headers.origin === ourOrigin;

  const pages: FastifyPluginAsyncTypebox = async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    app.setErrorHandler((err, _req, reply) => {
      const known = toAppError(err as Error);
      if (known?.code === 'not_found' || (err as { validationContext?: string }).validationContext) return notFoundPage(reply);
      if (known && known.statusCode < 500) return sendPage(reply, known.statusCode, messagePage('That did not work', known.message));
      reply.log.error({ err }, 'portal page failed');
      return sendPage(reply, 500, messagePage('Something went wrong', 'Please try again in a moment.'));
    });

    /** The signed-in buyer of this brand's portal, or undefined after answering with the sign-in page. */
    const buyerOf = async (req: FastifyRequest, reply: FastifyReply, brand: BrandProfileRow, focus?: string) => {
      const session = await service.sessionBuyer(db, brand.id, tokenOf(req));
      if (!session) {
        sendPage(reply, 401, signInPage(frameOf(brand), { focus }));
        return undefined;
      }
      return session;
    };

    app.get('/portal/:slug', {
      schema: { hide: true, params: Type.Object({ slug: Slug }), querystring: Type.Object({ focus: Type.Optional(Id), done: Type.Optional(Type.String({ maxLength: 20 })) }) },
    }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      const session = await service.sessionBuyer(db, brand.id, tokenOf(req));
      if (!session) return sendPage(reply, 200, signInPage(frameOf(brand), { focus: req.query.focus }));
      const frame = frameOf(brand, session.mode);
      const view = await service.portalView(db, session, { serverKey: secrets.webhookKey, downloadTtlMs: config.files.downloadTtlMs, portalUrl: frame.home });
      const notice = notices[req.query.done ?? ''];
      return sendPage(reply, 200, homePage(frame, view, { email: session.email, focus: req.query.focus ?? null, back: session.returnUrl, notice }));
    });

    app.post('/portal/:slug/sign-in', {
      schema: { hide: true, params: Type.Object({ slug: Slug }), body: Type.Object({ email: Type.String({ maxLength: 254 }), focus: Type.Optional(Id) }) },
    }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      if (!fromOurPages(req)) return sendPage(reply, 403, messagePage('Not sent', 'This form was sent from another site.'));
      const email = req.body.email.trim();
      try {
        await db.transaction((tx) => service.requestSignInLink(tx, brand.id, email, frameOf(brand).home, req.body.focus));
      } catch (err) {
        const known = toAppError(err as Error);
        if (known?.code === 'validation_failed') return sendPage(reply, 400, signInPage(frameOf(brand), { error: 'Enter the email address you bought with, such as ada@example.com.' }));
        throw err;
      }
      return sendPage(reply, 200, signInPage(frameOf(brand), { sent: email }));
    });

    app.get('/portal/:slug/enter', {
      schema: { hide: true, params: Type.Object({ slug: Slug }), querystring: Type.Object({ token: Type.String({ maxLength: 200 }) }) },
    }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      const entered = await db.transaction((tx) => service.enterPortal(tx, brand.id, req.query.token));
      if (!entered) return sendPage(reply, 410, signInPage(frameOf(brand), { expired: true }));
      setCookie(reply, brand, entered.sessionToken, service.sessionTtlMs / 1000);
      const home = frameOf(brand).home;
      return reply.redirect(entered.deepLink ? `${home}?focus=${encodeURIComponent(entered.deepLink)}#${encodeURIComponent(entered.deepLink)}` : home, 303);
    });

    app.post('/portal/:slug/sign-out', { schema: { hide: true, params: Type.Object({ slug: Slug }) } }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      await service.signOut(db, tokenOf(req));
      setCookie(reply, brand, '', 0);
      return reply.redirect(frameOf(brand).home, 303);
    });

    for (const action of ['cancel', 'resume'] as const) {
      app.post(`/portal/:slug/memberships/:id/${action}`, { schema: { hide: true, params: Type.Object({ slug: Slug, id: Id }) } }, async (req, reply) => {
        const { slug, id } = req.params as { slug: string; id: string };
        const brand = await brandOf(slug);
        if (!brand) return notFoundPage(reply);
        if (!fromOurPages(req)) return sendPage(reply, 403, messagePage('Not changed', 'This form was sent from another site.'));
        const buyer = await buyerOf(req, reply, brand);
        if (!buyer) return reply;
        await service.requireOwnMembership(db, buyer, id);
        const principal = service.portalPrincipal(buyer);
        // Cancelling a membership whose renewal failed stops the retries and ends it now (cancelMembership), as the API's cancel does.
        let done: string = action === 'cancel' ? 'cancelled' : 'kept';
        if (action === 'cancel') {
          const after = await endMembershipWithProvider(db, payments, principal, { membershipId: id, atPeriodEnd: true });
          if (after.status !== 'active') done = 'ended';
        } else await db.transaction((tx) => resumeMembership(tx, principal, id));
        return reply.redirect(`${frameOf(brand).home}?done=${done}&focus=${encodeURIComponent(id)}#${encodeURIComponent(id)}`, 303);
      });
    }

    // Update card: the sandbox's form is ours; Stripe's billing portal is its own page (payments/stripe/provider.ts).
    app.get('/portal/:slug/memberships/:id/card', { schema: { hide: true, params: Type.Object({ slug: Slug, id: Id }) } }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      const buyer = await buyerOf(req, reply, brand, req.params.id);
      if (!buyer) return reply;
      const frame = frameOf(brand, buyer.mode);
      const target = await service.cardUpdate(db, payments, buyer, req.params.id, `${frame.home}?done=card&focus=${encodeURIComponent(req.params.id)}`);
      if (target.form === undefined) return reply.redirect(target.redirect, 303);
      const { membership, provider, failing } = target.form;
      return sendPage(reply, 200, cardPage(frame, { membershipId: membership.id, name: membership.name, failing, fields: provider.detailFields, email: buyer.email }));
    });

    app.post('/portal/:slug/memberships/:id/card', {
      schema: { hide: true, params: Type.Object({ slug: Slug, id: Id }), body: Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 200 })) },
    }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      if (!fromOurPages(req)) return sendPage(reply, 403, messagePage('Not changed', 'This form was sent from another site.'));
      const buyer = await buyerOf(req, reply, brand, req.params.id);
      if (!buyer) return reply;
      const frame = frameOf(brand, buyer.mode);
      const saved = await db.transaction((tx) => service.saveCard(tx, payments, buyer, req.params.id, req.body));
      if ('error' in saved) {
        return sendPage(reply, 400, cardPage(frame, {
          membershipId: saved.membership.id, name: saved.membership.name, failing: saved.failing, fields: saved.provider.detailFields, error: saved.error, email: buyer.email,
        }));
      }
      const id = encodeURIComponent(req.params.id);
      return reply.redirect(`${frame.home}?done=${saved.retrying ? 'card-retrying' : 'card'}&focus=${id}#${id}`, 303);
    });

    app.get('/portal/:slug/invoices/:txref', { schema: { hide: true, params: Type.Object({ slug: Slug, txref: Id }) } }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      // A receipt's "View invoice" (mail/kinds.ts): signed out, sign-in leads back to this payment.
      const buyer = await buyerOf(req, reply, brand, req.params.txref);
      if (!buyer) return reply;
      await service.requireOwnTransaction(db, buyer, req.params.txref);
      const pdf = await invoicePdf(await invoiceFacts(db, service.portalPrincipal(buyer), req.params.txref));
      return reply.type('application/pdf').header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="invoice-${req.params.txref}.pdf"`).send(Buffer.from(pdf));
    });

    // A signed URL works without the session (it can be opened in a download manager), until it expires.
    app.get('/portal/:slug/files/:token', { schema: { hide: true, params: Type.Object({ slug: Slug, token: Type.String({ maxLength: 1000 }) }) } }, async (req, reply) => {
      const brand = await brandOf(req.params.slug);
      if (!brand) return notFoundPage(reply);
      const grant = openDownload(secrets.webhookKey, req.params.token);
      if (grant === 'expired') return sendPage(reply, 410, messagePage('Link expired', 'This download link has expired. Open your purchases again for a fresh one.'));
      if (grant === 'invalid' || grant.brandId !== brand.id) return notFoundPage(reply);
      const item = await db.transaction((tx) => service.authorizeDownload(tx, grant));
      const stream = await store.open(item.file_key!);
      if (!stream) return notFoundPage(reply);
      return reply.type(item.file_type ?? 'application/octet-stream')
        .header('content-length', String(item.file_size))
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${item.file_name ?? 'download'}"`)
        .send(stream);
    });
  };
  parent.register(pages);
}
