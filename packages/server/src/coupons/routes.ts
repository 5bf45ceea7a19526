import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { Coupon, CouponCreateBody, CouponListQuery, CouponUpdateBody, CouponWithRedemptions } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

const Id = Type.Object({ id: Type.String() });
const read = { auth: { scope: 'products:read' as const } };
const edit = { auth: { scope: 'products:write' as const } };

/** Our addition: coupons (docs/coupons.md). Mode-scoped: a test key's coupons apply to test payment links only. */
export function couponRoutes(app: App, { db }: { db: Db }) {
  app.post('/coupons', {
    schema: {
      summary: 'Create a coupon',
      description: 'Our addition. A code buyers type at checkout (or `coupon` on POST /payment-links) for a percentage or an amount off per currency, '
        + 'optionally only on some products, tiers or hubs, within a window, up to a total and a per-buyer number of uses, above a minimum order. '
        + 'Codes are matched ignoring case and are unique among the brand\'s active coupons (409 otherwise).',
      tags: ['Coupons'],
      body: CouponCreateBody,
      response: { 200: Envelope(Coupon) },
    },
    config: { ...edit, operation: contract.createCoupon },
  }, async (req, reply) => write(db, req, reply, (tx) => service.createCoupon(tx, principalOf(req), req.body), 'Coupon created'));

  app.get('/coupons', {
    schema: {
      summary: 'List coupons',
      description: 'Our addition. The coupons of this mode, newest first, with their uses; `status` and `code` filter.',
      tags: ['Coupons'],
      querystring: CouponListQuery,
      response: { 200: Envelope(ListOf(Coupon)) },
    },
    config: { ...read, operation: contract.listCoupons },
  }, async (req) => ok('Coupons retrieved', await service.listCoupons(db, principalOf(req), req.query)));

  app.get('/coupons/:id', {
    schema: {
      summary: 'Get a coupon',
      description: 'Our addition. One coupon with its uses: the revenue the paid ones brought and what it took off, per currency, and the 50 newest.',
      tags: ['Coupons'],
      params: Id,
      response: { 200: Envelope(CouponWithRedemptions) },
    },
    config: { ...read, operation: contract.getCoupon },
  }, async (req) => ok('Coupon retrieved', await service.getCoupon(db, principalOf(req), req.params.id)));

  app.patch('/coupons/:id', {
    schema: {
      summary: 'Update a coupon',
      description: 'Our addition. Changes the fields sent (`null` clears one): name, scope, window, caps (not below the uses made or under way), minimums. '
        + 'The code and the discount never change: archive the coupon and make another. Links already made keep the discount they show.',
      tags: ['Coupons'],
      params: Id,
      body: CouponUpdateBody,
      response: { 200: Envelope(Coupon) },
    },
    config: { ...edit, operation: contract.updateCoupon },
  }, async (req, reply) => write(db, req, reply, (tx) => service.updateCoupon(tx, principalOf(req), req.params.id, req.body), 'Coupon updated'));

  app.delete('/coupons/:id', {
    schema: {
      summary: 'Archive a coupon',
      description: 'Our addition, as Stripe\'s DELETE /v1/coupons: no new buyer can use it, and its code is free for a new coupon. Nothing is deleted: '
        + 'its redemptions and revenue stay, and subscriptions that got it keep their discount. Answers the archived coupon; repeating it answers the same.',
      tags: ['Coupons'],
      params: Id,
      response: { 200: Envelope(Coupon) },
    },
    config: { ...edit, operation: contract.archiveCoupon },
  }, async (req, reply) => write(db, req, reply, (tx) => service.archiveCoupon(tx, principalOf(req), req.params.id), 'Coupon archived'));
}
