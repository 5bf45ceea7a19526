import { Type, type Static } from 'typebox';
import { Currency } from '../money.ts';

/**
 * The catalog file `catalog load` reads (README, "Catalog files"). Each hub, product, tier and
 * item has a `ref`: a name unique in the file that other entries point at and that the command
 * prints next to the id it created.
 */
const Ref = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' });
const Timestamp = Type.String({ format: 'date-time' });
const Amount = Type.Number({ minimum: 0, maximum: 1e9 });
const MoneyInput = Type.Object({ amount: Amount, currency: Currency }, { additionalProperties: false });

export const CatalogTier = Type.Object({
  ref: Ref,
  name: Type.String({ minLength: 1 }),
  type: Type.Optional(Type.Union([Type.Literal('free'), Type.Literal('one_off'), Type.Literal('recurring'), Type.Literal('pay_what_you_want')])),
  price: MoneyInput,
  discount: Type.Optional(Type.Object({ amount: Amount }, { additionalProperties: false })),
  recurrence: Type.Optional(Type.Object({
    periodic: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('yearly')]),
    interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
    count: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  }, { additionalProperties: false })),
  perks: Type.Optional(Type.Array(Type.String())),
  buttonText: Type.Optional(Type.String()),
  timeBound: Type.Optional(Timestamp),
  slots: Type.Optional(Type.Integer({ minimum: 0 })),
  noOfTickets: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  items: Type.Optional(Type.Array(Ref)),
  isDefault: Type.Optional(Type.Boolean()),
  archived: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])),
}, { additionalProperties: false });

export const CatalogItem = Type.Object({
  ref: Ref,
  type: Type.String({ minLength: 1 }),
  title: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  image: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Integer({ minimum: 0 })),
  isAddon: Type.Optional(Type.Boolean()),
  parent: Type.Optional(Ref),
  price: Type.Optional(MoneyInput),
}, { additionalProperties: false });

export const CatalogCheckoutField = Type.Object({
  label: Type.String({ minLength: 1 }),
  type: Type.Union(['text', 'email', 'phone', 'number', 'select', 'checkbox', 'date'].map((t) => Type.Literal(t))),
  required: Type.Optional(Type.Boolean()),
  options: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
}, { additionalProperties: false });

export const CatalogProduct = Type.Object({
  ref: Ref,
  type: Type.Union(['digital', 'course', 'event', 'service', 'membership', 'physical'].map((t) => Type.Literal(t))),
  title: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')])),
  visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')])),
  imageUrl: Type.Optional(Type.String({ format: 'uri' })),
  url: Type.Optional(Type.String({ format: 'uri' })),
  keywords: Type.Optional(Type.Array(Type.String())),
  hub: Type.Optional(Ref),
  event: Type.Optional(Type.Object({
    eventType: Type.Union([Type.Literal('in_person'), Type.Literal('online'), Type.Literal('hybrid')]),
    venue: Type.String(),
    dateTime: Timestamp,
    endDate: Type.Optional(Timestamp),
  }, { additionalProperties: false })),
  tiers: Type.Array(CatalogTier, { minItems: 1 }),
  items: Type.Optional(Type.Array(CatalogItem)),
  checkoutFields: Type.Optional(Type.Array(CatalogCheckoutField)),
}, { additionalProperties: false });

export const CatalogHub = Type.Object({
  ref: Ref,
  name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  tiers: Type.Array(CatalogTier, { minItems: 1 }),
}, { additionalProperties: false });

export const Catalog = Type.Object({
  hubs: Type.Optional(Type.Array(CatalogHub)),
  products: Type.Optional(Type.Array(CatalogProduct)),
}, { additionalProperties: false });

export type Catalog = Static<typeof Catalog>;
export type CatalogTier = Static<typeof CatalogTier>;
export type CatalogProduct = Static<typeof CatalogProduct>;
export type CatalogHub = Static<typeof CatalogHub>;
