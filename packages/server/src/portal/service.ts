import type { Mode, Principal } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { queueMail } from '../mail/service.ts';
import { toMajor } from '../money.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import * as subscriptions from '../subscriptions/repository.ts';
import { changePaymentMethod } from '../subscriptions/service.ts';
import * as repo from './repository.ts';
import { hashOf, newToken, signDownload, type DownloadGrant } from './tokens.ts';

/**
 * The buyer portal (docs/portal.md): one-time sign-in links (emailed, or minted by the brand's
 * developer with POST /customer-sessions), the sessions they open, what a signed-in buyer sees,
 * and signed download URLs. A session is one brand, one mode and one buyer (their email); every
 * query here is narrowed to all three, so a session never sees another buyer's data.
 */

export const linkTtlMs = 15 * 60_000;
export const sessionTtlMs = 12 * 3_600_000;
/** Emailed sign-in links per address and brand within the window: enough for a lost mail, too few to flood an inbox. */
export const signInLinksPerWindow = 5;
export const signInWindowMs = 15 * 60_000;

export interface PortalBuyer {
  brandId: string;
  mode: Mode;
  email: string;
}

/** The principal a portal action calls the API's services as: the brand's, in the buyer's mode. */
export const portalPrincipal = (b: PortalBuyer): Principal => ({ brandId: b.brandId, mode: b.mode, scopes: ['customers:write'], via: 'session' });

const enterUrl = (portalUrl: string, token: string) => `${portalUrl}/enter?token=${encodeURIComponent(token)}`;

/** Kinds of thing a deep link may open, by the prefix of their ids. */
async function checkDeepLink(db: Queryable, buyer: PortalBuyer, deepLink: string) {
  const memberships = await repo.buyerMemberships(db, buyer.brandId, buyer.mode, buyer.email);
  if (memberships.some((m) => m.id === deepLink || m.subscription_id === deepLink)) return;
  const txs = await repo.buyerTransactions(db, buyer.brandId, buyer.mode, buyer.email);
  if (txs.some((t) => t.txref === deepLink || t.id === deepLink)) return;
  if ((await repo.entitledItems(db, buyer.brandId, buyer.mode, buyer.email, deepLink)).length) return;
  throw invalid('deepLink', 'must be the id of one of this customer\'s subscriptions or memberships, a txref of theirs, or an item they can open');
}

/** An http(s) address to go back to; anything else could run script or leave through a strange scheme. */
function checkReturnUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  let parsed: URL;
  try { parsed = new URL(url); } catch { throw invalid('returnUrl', 'must be an absolute http(s) URL'); }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid('returnUrl', 'must be an absolute http(s) URL');
  return parsed.toString();
}

/**
 * POST /customer-sessions: a one-time URL into the portal for one of the brand's buyers, valid
 * 15 minutes. The buyer must have bought something in the key's mode (404 otherwise: the brand's
 * developer is told, as with any unknown id).
 */
export async function createCustomerSession(
  tx: Queryable, principal: Principal, input: { email: string; returnUrl?: string; deepLink?: string }, portalUrl: string,
) {
  const email = input.email.trim();
  const buyer = { brandId: principal.brandId, mode: principal.mode, email };
  if (!(await repo.isBuyer(tx, buyer.brandId, buyer.mode, email))) throw new AppError('not_found', `No customer with the email ${email} has bought anything in ${principal.mode} mode.`);
  const returnUrl = checkReturnUrl(input.returnUrl);
  if (input.deepLink !== undefined) await checkDeepLink(tx, buyer, input.deepLink);
  const { token, hash } = newToken();
  const link = await repo.insertLink(tx, { token_hash: hash, brand_id: buyer.brandId, mode: buyer.mode, email, deep_link: input.deepLink ?? null, return_url: returnUrl, ttlMs: linkTtlMs });
  return {
    url: enterUrl(portalUrl, token),
    email,
    expiresAt: link.expires_at.toISOString(),
    ...(input.deepLink !== undefined ? { deepLink: input.deepLink } : {}),
    ...(returnUrl ? { returnUrl } : {}),
    mode: principal.mode,
  };
}

/**
 * The portal's "email me a link": sent when the address bought something (live mode first, else
 * test), never saying whether it did, so the form tells nobody who the brand's buyers are. Past
 * the rate limit nothing more is sent (the answer is the same).
 */
export async function requestSignInLink(tx: Queryable, brandId: string, email: string, portalUrl: string, focus?: string): Promise<void> {
  const address = email.trim();
  if (!/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(address) || address.length > 254) throw invalid('email', 'must be an email address such as ada@example.com');
  let mode: Mode | undefined;
  for (const m of ['live', 'test'] as const) if (!mode && await repo.isBuyer(tx, brandId, m, address)) mode = m;
  if (!mode) return;
  if (await repo.recentLinks(tx, brandId, address, signInWindowMs) >= signInLinksPerWindow) return;
  // Where the buyer was going (a mail's "Update your card" link to one membership): kept only when it is theirs.
  const deepLink = focus && await checkDeepLink(tx, { brandId, mode, email: address }, focus).then(() => focus, () => null);
  const { token, hash } = newToken();
  const link = await repo.insertLink(tx, { token_hash: hash, brand_id: brandId, mode, email: address, deep_link: deepLink || null, return_url: null, ttlMs: linkTtlMs });
  await queueMail(tx, {
    brandId, mode, kind: 'portal_sign_in', to: { email: address },
    data: { link: enterUrl(portalUrl, token), expiresAt: link.expires_at.toISOString() },
    dedupeKey: `portal_sign_in:${hash}`,
  });
}

/** Uses a one-time link: a new session (its cookie token), and where to open; undefined when used, expired or unknown. */
export async function enterPortal(tx: Queryable, brandId: string, token: string) {
  const link = await repo.useLink(tx, brandId, hashOf(token));
  if (!link) return undefined;
  const session = newToken();
  await repo.insertSession(tx, { token_hash: session.hash, brand_id: brandId, mode: link.mode, email: link.email, return_url: link.return_url, ttlMs: sessionTtlMs });
  return { sessionToken: session.token, deepLink: link.deep_link };
}

/** The signed-in buyer of a session cookie, with where their "Back" link leads. */
export async function sessionBuyer(db: Queryable, brandId: string, token: string | undefined): Promise<(PortalBuyer & { returnUrl: string | null }) | undefined> {
  if (!token) return undefined;
  const row = await repo.findSession(db, brandId, hashOf(token));
  return row ? { brandId: row.brand_id, mode: row.mode, email: row.email, returnUrl: row.return_url } : undefined;
}

export async function signOut(db: Queryable, token: string | undefined) {
  if (token) await repo.deleteSession(db, hashOf(token));
}

const money = (minor: string | number, currency: string) => {
  const major = toMajor(Number(minor), currency);
  try { return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(major); } catch { return `${major} ${currency}`; }
};

/** Everything the buyer has with the brand, as the portal shows it; download URLs signed for `downloadTtlMs`. */
export async function portalView(db: Queryable, buyer: PortalBuyer, opts: { serverKey: Buffer; downloadTtlMs: number; portalUrl: string }) {
  const memberships = await repo.buyerMemberships(db, buyer.brandId, buyer.mode, buyer.email);
  const transactions = await repo.buyerTransactions(db, buyer.brandId, buyer.mode, buyer.email);
  const items = await repo.entitledItems(db, buyer.brandId, buyer.mode, buyer.email);
  const exp = Date.now() + opts.downloadTtlMs;
  return {
    memberships: memberships.map((m) => ({
      ...m,
      price: m.amount && m.currency ? `${money(m.amount, m.currency)} / ${m.periodic?.replace(/ly$/, '').replace('dai', 'day')}` : null,
      items: items.filter((i) => i.product_id === m.product_id || (m.hub_id !== null && m.status === 'active')),
    })),
    transactions: transactions.map((t) => ({ ...t, total: money(t.amount, t.currency) })),
    items: items.map((i) => ({
      ...i,
      href: i.file_key
        ? `${opts.portalUrl}/files/${signDownload(opts.serverKey, { brandId: buyer.brandId, mode: buyer.mode, email: buyer.email.toLowerCase(), itemId: i.id, exp })}`
        : i.content_url,
    })),
  };
}

/** A download a signed URL asks for, if the buyer may still have it; counted. */
export async function authorizeDownload(tx: Queryable, grant: DownloadGrant) {
  const [item] = await repo.entitledItems(tx, grant.brandId, grant.mode, grant.email, grant.itemId);
  if (!item || !item.file_key) throw notFound('item you can download');
  await repo.countDownload(tx, grant.brandId, grant.mode, grant.email, item.id);
  return item;
}

/** The membership a portal action is about, if it is this buyer's. */
export async function requireOwnMembership(db: Queryable, buyer: PortalBuyer, membershipId: string) {
  const rows = await repo.buyerMemberships(db, buyer.brandId, buyer.mode, buyer.email);
  const m = rows.find((r) => r.id === membershipId);
  if (!m) throw notFound('membership');
  return m;
}

/** The transaction an invoice is asked for, if it is this buyer's. */
export async function requireOwnTransaction(db: Queryable, buyer: PortalBuyer, txref: string) {
  const rows = await repo.buyerTransactions(db, buyer.brandId, buyer.mode, buyer.email);
  const t = rows.find((r) => r.txref === txref);
  if (!t) throw notFound('transaction');
  return t;
}

/**
 * The portal's "Update card" for one of the buyer's memberships: its subscription's provider, which
 * says where the card is entered. Refused (409) for a membership with no subscription that renews.
 */
async function cardTarget(db: Queryable, payments: PaymentProviders, buyer: PortalBuyer, membershipId: string) {
  const m = await requireOwnMembership(db, buyer, membershipId);
  const sub = m.subscription_id ? await subscriptions.findSubscription(db, buyer.brandId, m.subscription_id) : undefined;
  const provider = sub?.provider ? payments.named(sub.provider) : undefined;
  if (!sub || (sub.status !== 'active' && sub.status !== 'past_due') || m.status !== 'active' || sub.cancel_at_period_end || !provider || !sub.payment_method) {
    throw new AppError('conflict', 'This membership has no subscription that renews, so it has no card to update.');
  }
  return { membership: m, provider, reference: sub.payment_method, failing: sub.status === 'past_due' };
}

/**
 * Where the buyer enters the card: a provider that keeps the card and bills renewals itself
 * (Stripe) has its own page (asked for outside any transaction); the sandbox's card form is ours.
 */
export async function cardUpdate(db: Queryable, payments: PaymentProviders, buyer: PortalBuyer, membershipId: string, returnUrl: string) {
  const target = await cardTarget(db, payments, buyer, membershipId);
  if (target.provider.cardUpdateUrl) return { redirect: await target.provider.cardUpdateUrl({ reference: target.reference, returnUrl }), form: undefined };
  if (!target.provider.saveMethod) throw new AppError('conflict', 'This payment provider cannot change the card of a subscription.');
  return { redirect: undefined, form: target };
}

/** Saves the card the buyer typed (the sandbox) and makes it the subscription's; an error in words when refused. */
export async function saveCard(tx: Queryable, payments: PaymentProviders, buyer: PortalBuyer, membershipId: string, details: Record<string, string>) {
  const target = await cardTarget(tx, payments, buyer, membershipId);
  if (!target.provider.saveMethod) throw new AppError('conflict', 'This payment provider keeps the card on its own page: follow "Update card".');
  const saved = await target.provider.saveMethod(tx, { brandId: buyer.brandId, details });
  if ('error' in saved) return { error: saved.error, ...target };
  const { retrying } = await changePaymentMethod(tx, portalPrincipal(buyer), membershipId, saved.method);
  return { retrying, ...target };
}
