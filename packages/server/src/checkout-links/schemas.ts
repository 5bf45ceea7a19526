import { Type, type Static } from 'typebox';
import { OneOf, Timestamp } from '../http/shapes.ts';

/**
 * Reusable checkout links (our addition, docs/checkout.md): a URL a creator shares once (a bio, a
 * QR code) that any number of buyers open, fill in and pay. Each buyer's form becomes an ordinary
 * payment link made by the same service as POST /payment-links.
 */

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const CustomAmountRange = Type.Object({
  min: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'The least a buyer may pay, as a decimal amount in the tier\'s currency; at least the tier\'s own price.' })),
  max: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'The most a buyer may pay, as a decimal amount; at least `min` (or the tier\'s price).' })),
}, {
  additionalProperties: false,
  minProperties: 1,
  description: 'Pay-what-you-want tiers only: the amounts the checkout accepts through this link (the form says the range; an amount outside it is refused beside the price field).',
  examples: [{ min: 25, max: 200 }],
});

export const CheckoutLinkItem = Type.Object({
  id: { ...Id, description: 'A product id of your brand, or a hub id to sell one of its plans.' },
  plan: { ...Id, description: 'A tier of that product (or hub). When a link names several, the buyer picks one.' },
  addons: Type.Optional(Type.Array(Id, {
    maxItems: 50,
    description: 'Add-on item ids of that product, ticked when the form opens on this tier (the buyer may untick them).',
  })),
  customAmountRange: Type.Optional(CustomAmountRange),
}, { additionalProperties: false });
export type CheckoutLinkItem = Static<typeof CheckoutLinkItem>;

export const CheckoutLink = Type.Object({
  id: Type.String(),
  url: Type.String({ format: 'uri', description: 'The public checkout page to share; it works for any number of buyers.' }),
  mode: Type.String({ description: '`test` or `live`, from the key that made it: a test link takes sandbox cards only.' }),
  name: Type.Optional(Type.String()),
  items: Type.Array(CheckoutLinkItem),
  status: OneOf(['active', 'disabled'], { description: '`active`, or `disabled` (its page says it is closed).' }),
  expiresAt: Type.Optional(Timestamp),
  maxSales: Type.Optional(Type.Integer({ description: 'Total sales cap; payments beyond it are refused before anyone pays.' })),
  sales: Type.Integer({ description: 'Payments completed through the link.' }),
  redirectUrl: Type.Optional(Type.String()),
  coupon: Type.Optional(Type.String({ description: 'Our addition: the preset coupon code the checkout form starts with (docs/coupons.md).' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'CheckoutLink' });
export type CheckoutLink = Static<typeof CheckoutLink>;

const common = {
  name: Type.String({ minLength: 1, maxLength: 200, description: 'Your label for the link (e.g. "Instagram bio").' }),
  expiresAt: { ...Timestamp, description: 'After this instant the page says sales have ended.' },
  maxSales: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'At most this many completed sales in all.' }),
  redirectUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'http(s) address buyers go to after paying, with `txref` and `status` added.' }),
  coupon: Type.String({ minLength: 1, maxLength: 100, description: 'The code of an active coupon of this mode, filled in on the form (the buyer may clear or change it).' }),
};

export const CheckoutLinkCreateBody = Type.Object({
  items: Type.Array(CheckoutLinkItem, { minItems: 1, maxItems: 10 }),
  name: Type.Optional(common.name),
  expiresAt: Type.Optional(common.expiresAt),
  maxSales: Type.Optional(common.maxSales),
  redirectUrl: Type.Optional(common.redirectUrl),
  coupon: Type.Optional(common.coupon),
}, { additionalProperties: false, $id: 'CheckoutLinkCreateRequest' });
export type CheckoutLinkCreateBody = Static<typeof CheckoutLinkCreateBody>;

const clearable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));

export const CheckoutLinkUpdateBody = Type.Object({
  items: Type.Optional(Type.Array(CheckoutLinkItem, { minItems: 1, maxItems: 10 })),
  name: clearable(common.name),
  status: Type.Optional(Type.Enum(['active', 'disabled'], { type: 'string' })),
  expiresAt: clearable(common.expiresAt),
  maxSales: clearable(common.maxSales),
  redirectUrl: clearable(common.redirectUrl),
  coupon: clearable(common.coupon),
}, { additionalProperties: false, minProperties: 1, $id: 'CheckoutLinkUpdateRequest' });
export type CheckoutLinkUpdateBody = Static<typeof CheckoutLinkUpdateBody>;
