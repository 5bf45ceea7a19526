import { Type } from 'typebox';
import { Amount, Currency, MoneyInput } from '../money.ts';
import { Timestamp } from '../http/shapes.ts';

/**
 * The fields a catalog write may set, shared by the two ways of writing the catalog: the catalog
 * file (`catalog load`, catalog/schema.ts) and the API (POST/PATCH /products and /hubs,
 * products/schemas.ts and hubs/schemas.ts). Each side adds only how its entries point at one
 * another (refs in a file, ids over the API); the rules beyond shape are catalog/rules.ts.
 *
 * The reference leaves the allowed values of type, status, visibility, periodic and
 * checkout-field type open; these are ours (docs/catalog.md lists them).
 */

export { Timestamp };

// Enums rather than unions of literals: their TypeScript type is the union of the values, and a
// refusal reads "must be one of a, b".
const literals = <const T extends string>(values: readonly T[], description?: string) =>
  Type.Enum(values as T[], { type: 'string', ...(description ? { description } : {}) });

export const productTypes = ['digital', 'course', 'event', 'service', 'membership', 'physical', 'appointment'] as const;
export const productStatuses = ['draft', 'published', 'archived'] as const;
export const visibilities = ['public', 'unlisted', 'private'] as const;
export const tierTypes = ['free', 'one_off', 'recurring', 'pay_what_you_want'] as const;
export const tierStatuses = ['active', 'inactive'] as const;
export const periods = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export const eventTypes = ['in_person', 'online', 'hybrid'] as const;
export const checkoutFieldTypes = ['text', 'email', 'phone', 'number', 'select', 'checkbox', 'date'] as const;

export const RecurrenceInput = Type.Object({
  periodic: literals(periods),
  interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'Bill every `interval` periods (default 1).' })),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Billing periods in all; 0 (the default) renews until cancelled.' })),
}, { additionalProperties: false });

export const EventInput = Type.Object({
  eventType: literals(eventTypes),
  venue: Type.String(),
  dateTime: Timestamp,
  endDate: Type.Optional(Timestamp),
}, { additionalProperties: false });

/** A tier's own fields (a product's way to buy it, or a hub's plan). */
export const tierFields = {
  name: Type.String({ minLength: 1 }),
  type: Type.Optional(literals(tierTypes, 'Default: `recurring` with a recurrence, `free` at price 0, else `one_off`; `pay_what_you_want` must be said (price is then the minimum).')),
  price: MoneyInput,
  discount: Type.Optional(Type.Object({
    amount: Amount,
    currency: Type.Optional(Currency),
  }, { additionalProperties: false, description: 'Taken off the price at checkout; in the price\'s currency (`currency` may be left out).' })),
  recurrence: Type.Optional(RecurrenceInput),
  perks: Type.Optional(Type.Array(Type.String())),
  buttonText: Type.Optional(Type.String()),
  timeBound: Type.Optional(Timestamp),
  slots: Type.Optional(Type.Integer({ minimum: 0 })),
  noOfTickets: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Tickets per purchase (default 1).' })),
  isDefault: Type.Optional(Type.Boolean({ description: 'At most one tier; without one, the first tier is the default.' })),
  archived: Type.Optional(Type.Boolean({ description: 'No longer on sale; kept for the people who bought it.' })),
  status: Type.Optional(literals(tierStatuses, 'Default `active`; `inactive` is off sale for now.')),
};

/** A content item's own fields: a file, a lesson, a session; or an add-on bought beside a tier. */
export const itemFields = {
  type: Type.String({ minLength: 1, description: 'Free text, e.g. file, lesson, session, addon.' }),
  title: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  image: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Integer({ minimum: 0, description: 'Seconds.' })),
  isAddon: Type.Optional(Type.Boolean()),
  price: Type.Optional(MoneyInput),
  archived: Type.Optional(Type.Boolean({ description: 'Kept for the tiers that include it, shown to no new buyer.' })),
};

export const checkoutFieldFields = {
  label: Type.String({ minLength: 1 }),
  type: literals(checkoutFieldTypes),
  required: Type.Optional(Type.Boolean()),
  options: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'The choices of a select field (required for it).' })),
};

/** A product's own fields. */
export const productFields = {
  type: literals(productTypes),
  title: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  status: Type.Optional(literals(productStatuses, 'Default `published`; only published products are on sale.')),
  visibility: Type.Optional(literals(visibilities, 'Default `public`.')),
  imageUrl: Type.Optional(Type.String({ format: 'uri' })),
  url: Type.Optional(Type.String({ format: 'uri' })),
  keywords: Type.Optional(Type.Array(Type.String())),
  event: Type.Optional(EventInput),
};

export const hubFields = {
  name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
};
