import { readFile } from 'node:fs/promises';
import { Type, type Static, type TSchema } from 'typebox';
import { setPlan, setRateLimits } from '../brands/repository.ts';
import { createBrand, requireBrand } from '../brands/service.ts';
import { AppError, invalid } from '../errors.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { Db } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import type { KeyCache } from '../keys/cache.ts';
import { scopes, type Principal, type Scope } from '../auth/principal.ts';
import { advanceClock } from '../test-clock/flows.ts';
import type { Config } from '../config.ts';
import { configuredPayments } from '../payments/configured.ts';
import { endMembershipWithProvider } from '../subscriptions/flows.ts';
import { createKey, listKeys, revokeKey, rollKey } from '../keys/service.ts';
import { createConfidentialClient } from '../oauth/clients.ts';
import { addUserToBrand, createPasswordReset } from '../users/service.ts';
import { seedDemoActivity } from './demo.ts';
import { Mode } from '../http/shapes.ts';
import { patternMessage } from '../http/error-handler.ts';
import { listOutbox, showOutboxMessage } from '../mail/outbox.ts';
import Value from 'typebox/value';
import { archiveCoupon, createCoupon, listCoupons } from '../coupons/service.ts';
import { CouponCreateBody } from '../coupons/schemas.ts';
import { createAffiliate, getAffiliate, listAffiliates, updateAffiliate } from '../affiliates/service.ts';
import { AffiliateCreateBody, AffiliateUpdateBody } from '../affiliates/schemas.ts';
import { listTransactions } from '../transactions/service.ts';
import { setFulfilment } from '../shipping/fulfilment.ts';
import { FulfilmentBody } from '../shipping/schemas.ts';

const ScopeName = Type.Unsafe<Scope>({ type: 'string', enum: [...scopes] });

/**
 * An admin command, already parsed. The CLI runs it against the database directly, or sends it
 * to the running server (embedded mode), which runs the very same function.
 */
export const Command = Type.Union([
  Type.Object({ command: Type.Literal('migrate') }),
  Type.Object({
    command: Type.Literal('brand create'),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    plan: Type.Union([Type.Literal('free'), Type.Literal('plus')]),
    // Older CLIs (talking to a newer server) send neither.
    ownerEmail: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    ownerName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
  Type.Object({ command: Type.Literal('brand plan'), brandId: Type.String(), plan: Type.Union([Type.Literal('free'), Type.Literal('plus')]) }),
  Type.Object({
    command: Type.Literal('brand rate-limit'),
    brandId: Type.String(),
    // A number sets the brand's budget; null returns it to the server's default; absent leaves it.
    live: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
    test: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
  }),
  Type.Object({ command: Type.Literal('key create'), brandId: Type.String(), mode: Mode, scopes: Type.Array(ScopeName), name: Type.Union([Type.String(), Type.Null()]) }),
  Type.Object({ command: Type.Literal('key list'), brandId: Type.String() }),
  Type.Object({ command: Type.Literal('key revoke'), keyId: Type.String() }),
  Type.Object({ command: Type.Literal('key roll'), keyId: Type.String(), graceSeconds: Type.Integer({ minimum: 0, maximum: 604_800 }) }),
  Type.Object({ command: Type.Literal('catalog load'), brandId: Type.String(), catalog: Type.Unknown() }),
  Type.Object({ command: Type.Literal('seed demo') }),
  Type.Object({ command: Type.Literal('member remove'), membershipId: Type.String(), brandId: Type.Union([Type.String(), Type.Null()]), atPeriodEnd: Type.Boolean() }),
  Type.Object({
    command: Type.Literal('user create'),
    brandId: Type.String(),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    role: Type.Union([Type.Literal('owner'), Type.Literal('developer')]),
    password: Type.Union([Type.String(), Type.Null()]),
  }),
  Type.Object({ command: Type.Literal('user reset-password'), email: Type.String() }),
  Type.Object({
    command: Type.Literal('oauth client create'),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    redirectUris: Type.Array(Type.String({ maxLength: 2000 }), { minItems: 1, maxItems: 20 }),
    authMethod: Type.Union([Type.Literal('client_secret_basic'), Type.Literal('client_secret_post')]),
  }),
  Type.Object({ command: Type.Literal('clock advance'), brandId: Type.String(), by: Type.Union([Type.String(), Type.Null()]), to: Type.Union([Type.String(), Type.Null()]) }),
  Type.Object({ command: Type.Literal('email list'), brandId: Type.Union([Type.String(), Type.Null()]), limit: Type.Integer({ minimum: 1, maximum: 1000 }) }),
  Type.Object({ command: Type.Literal('email show'), messageId: Type.String() }),
  Type.Object({ command: Type.Literal('coupon list'), brandId: Type.String(), mode: Mode }),
  // The body is checked against POST /coupons's own schema when it runs, so the CLI and the API refuse the same things.
  Type.Object({ command: Type.Literal('coupon create'), brandId: Type.String(), mode: Mode, body: Type.Record(Type.String(), Type.Unknown()) }),
  Type.Object({ command: Type.Literal('order list'), brandId: Type.String(), mode: Mode, limit: Type.Integer({ minimum: 1, maximum: 100 }) }),
  Type.Object({ command: Type.Literal('order fulfil'), brandId: Type.String(), mode: Mode, txref: Type.String(), body: Type.Record(Type.String(), Type.Unknown()) }),
  Type.Object({ command: Type.Literal('coupon archive'), brandId: Type.String(), mode: Mode, couponId: Type.String() }),
  Type.Object({ command: Type.Literal('affiliate list'), brandId: Type.String(), mode: Mode, status: Type.Union([Type.Literal('active'), Type.Literal('archived'), Type.Null()]) }),
  // Bodies are checked against the API's own schemas when they run, as for coupons.
  Type.Object({ command: Type.Literal('affiliate create'), brandId: Type.String(), mode: Mode, body: Type.Record(Type.String(), Type.Unknown()) }),
  Type.Object({ command: Type.Literal('affiliate show'), brandId: Type.String(), mode: Mode, affiliateId: Type.String() }),
  Type.Object({ command: Type.Literal('affiliate update'), brandId: Type.String(), mode: Mode, affiliateId: Type.String(), body: Type.Record(Type.String(), Type.Unknown()) }),
]);
export type Command = Static<typeof Command>;

export const exampleCatalogPath = new URL('../../../../examples/catalog.json', import.meta.url);

/** The admin CLI acts as the brand's owner: every scope, in the mode of what it acts on. */
const ownerOf = (brandId: string, mode: 'test' | 'live'): Principal => ({ brandId, mode, scopes: [...scopes], via: 'session' });

export async function runCommand(db: Db, keyCache: KeyCache | undefined, cmd: Command, config: Config): Promise<unknown> {
  switch (cmd.command) {
    case 'migrate':
      return { applied: await migrate(db) };
    case 'brand create': {
      if (!cmd.ownerEmail) return createBrand(db, { name: cmd.name, plan: cmd.plan });
      const ownerEmail = cmd.ownerEmail;
      return db.transaction(async (tx) => {
        const brand = await createBrand(tx, { name: cmd.name, plan: cmd.plan });
        const { user } = await addUserToBrand(tx, { brandId: brand.id, email: ownerEmail, ...(cmd.ownerName ? { name: cmd.ownerName } : {}), role: 'owner' });
        // Without a password yet, the owner sets one through a one-time link.
        const reset = user.password_hash ? undefined : await createPasswordReset(tx, config.publicUrl, user.email);
        return { ...brand, ownerEmail: user.email, ...(reset ? { link: reset.link } : {}) };
      });
    }
    case 'brand plan': {
      // Moving to Free cuts every connected app off from its next request (oauth/resolver.ts).
      const row = await setPlan(db, cmd.brandId, cmd.plan);
      if (!row) throw new AppError('not_found', `No brand with id ${cmd.brandId} exists.`);
      return row;
    }
    case 'brand rate-limit': {
      const row = await setRateLimits(db, cmd.brandId, { live: cmd.live, test: cmd.test });
      if (!row) throw new AppError('not_found', `No brand with id ${cmd.brandId} exists.`);
      return { id: row.id, rateLimits: { live: row.rate_limit_live, test: row.rate_limit_test } };
    }
    case 'key create': {
      await requireBrand(db, cmd.brandId);
      const key = await createKey(db, { brandId: cmd.brandId, mode: cmd.mode, scopes: cmd.scopes, name: cmd.name });
      return { id: key.id, key: key.key, mode: key.mode, scopes: key.scopes, name: key.name };
    }
    case 'key list':
      return { items: await listKeys(db, cmd.brandId) };
    case 'key revoke':
      return revokeKey(db, keyCache, cmd.keyId);
    case 'key roll':
      return db.transaction((tx) => rollKey(tx, keyCache, cmd.keyId, cmd.graceSeconds));
    case 'catalog load':
      return { brandID: cmd.brandId, ids: await db.transaction((tx) => loadCatalog(tx, cmd.brandId, cmd.catalog)) };
    case 'seed demo': {
      const brand = await createBrand(db, { name: 'Demo Creator', plan: 'plus' });
      const catalog: unknown = JSON.parse(await readFile(exampleCatalogPath, 'utf8'));
      const ids = await db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
      await seedDemoActivity(db, brand.id, ids);
      const key = await createKey(db, { brandId: brand.id, mode: 'test', scopes: [...scopes], name: 'demo' });
      return { brand, key: key.key, keyId: key.id, mode: key.mode, scopes: key.scopes, ids };
    }
    case 'member remove': {
      const [found] = await db.query<{ brand_id: string; mode: 'test' | 'live' }>(
        `SELECT brand_id, mode FROM memberships WHERE id = $1 ${cmd.brandId ? 'AND brand_id = $2' : ''}`,
        cmd.brandId ? [cmd.membershipId, cmd.brandId] : [cmd.membershipId],
      );
      if (!found) throw new Error(`No membership ${cmd.membershipId} exists${cmd.brandId ? ` in brand ${cmd.brandId}` : ''}.`);
      // A live member billed by Stripe: Stripe is told to stop billing too (as the API route does).
      const { payments } = await configuredPayments(config);
      return endMembershipWithProvider(db, payments, ownerOf(found.brand_id, found.mode), { membershipId: cmd.membershipId, atPeriodEnd: cmd.atPeriodEnd });
    }
    case 'user create':
      return db.transaction(async (tx) => {
        await requireBrand(tx, cmd.brandId);
        const { user, role } = await addUserToBrand(tx, { brandId: cmd.brandId, email: cmd.email, role: cmd.role, ...(cmd.name !== null ? { name: cmd.name } : {}), ...(cmd.password !== null ? { password: cmd.password } : {}) });
        const reset = user.password_hash ? undefined : await createPasswordReset(tx, config.publicUrl, user.email);
        return { id: user.id, email: user.email, name: user.name, brandID: cmd.brandId, role, ...(reset ? { link: reset.link } : {}) };
      });
    case 'user reset-password': {
      const reset = await db.transaction((tx) => createPasswordReset(tx, config.publicUrl, cmd.email));
      return { link: reset.link, expiresAt: reset.expiresAt };
    }
    case 'oauth client create':
      return createConfidentialClient(db, config.publicUrl, { name: cmd.name, redirectUris: cmd.redirectUris, authMethod: cmd.authMethod });
    case 'clock advance':
      await requireBrand(db, cmd.brandId);
      return advanceClock(db, config, ownerOf(cmd.brandId, 'test'), { ...(cmd.by !== null ? { by: cmd.by } : {}), ...(cmd.to !== null ? { to: cmd.to } : {}) });
    case 'email list':
      return listOutbox(db, { brandId: cmd.brandId ?? undefined, limit: cmd.limit });
    case 'email show':
      return showOutboxMessage(db, cmd.messageId, config.publicUrl);
    case 'coupon list':
      await requireBrand(db, cmd.brandId);
      return listCoupons(db, ownerOf(cmd.brandId, cmd.mode), { limit: 100 });
    case 'coupon create': {
      checkBody(CouponCreateBody, cmd.body, 'coupon');
      return db.transaction(async (tx) => {
        await requireBrand(tx, cmd.brandId);
        return createCoupon(tx, ownerOf(cmd.brandId, cmd.mode), cmd.body as CouponCreateBody);
      });
    }
    case 'coupon archive':
      return db.transaction((tx) => archiveCoupon(tx, ownerOf(cmd.brandId, cmd.mode), cmd.couponId));
    case 'affiliate list':
      await requireBrand(db, cmd.brandId);
      return listAffiliates(db, ownerOf(cmd.brandId, cmd.mode), { limit: 100, ...(cmd.status ? { status: cmd.status } : {}) }, config.payouts);
    case 'affiliate create':
      checkBody(AffiliateCreateBody, cmd.body, 'affiliate');
      return db.transaction(async (tx) => {
        await requireBrand(tx, cmd.brandId);
        return createAffiliate(tx, ownerOf(cmd.brandId, cmd.mode), cmd.body as AffiliateCreateBody, config.payouts);
      });
    case 'affiliate show':
      return getAffiliate(db, ownerOf(cmd.brandId, cmd.mode), cmd.affiliateId, config.payouts);
    case 'affiliate update':
      checkBody(AffiliateUpdateBody, cmd.body, 'affiliate');
      return db.transaction((tx) => updateAffiliate(tx, ownerOf(cmd.brandId, cmd.mode), cmd.affiliateId, cmd.body as AffiliateUpdateBody, config.payouts));
    case 'order list':
      await requireBrand(db, cmd.brandId);
      return listTransactions(db, ownerOf(cmd.brandId, cmd.mode), { status: 'succeeded', fulfilment: 'unfulfilled', order: 'oldest', limit: cmd.limit }, config.payouts);
    case 'order fulfil': {
      const problem = [...Value.Errors(FulfilmentBody, cmd.body)][0];
      if (problem) throw invalid(problem.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'status', problem.message);
      return db.transaction(async (tx) => {
        await requireBrand(tx, cmd.brandId);
        return setFulfilment(tx, ownerOf(cmd.brandId, cmd.mode), cmd.txref, cmd.body as FulfilmentBody, config.payouts);
      });
    }
  }
}

/** A body the CLI built, checked against the API route's own schema: the first problem, naming its field. */
function checkBody(schema: TSchema, body: unknown, what: string) {
  const problem = [...Value.Errors(schema, body)][0];
  if (!problem) return;
  const pattern = problem.keyword === 'pattern' ? patternMessage(String((problem.params as { pattern?: unknown }).pattern)) : undefined;
  throw invalid(problem.instancePath.replace(/^\//, '').replaceAll('/', '.') || what, pattern ?? problem.message);
}
