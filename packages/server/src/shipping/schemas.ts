import { Type, type Static } from 'typebox';
import { MoneyInput } from '../money.ts';
import { Timestamp } from '../http/shapes.ts';

/**
 * Physical goods (docs/shipping.md): a product of type `physical` may carry `shipping` (delivery
 * zones and/or pickup points); a payment link for it chooses one with `deliveryLocation` (and an
 * `address`) or `pickupLocation`; the order then carries `shipping` and `fulfilment`. One shape
 * each, used for validation, answers, OpenAPI and the SDK's types.
 */

const Id = (description: string) => Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$', description });
const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code, upper case (e.g. `US`, `GB`, `DE`).' });

export const Address = Type.Object({
  line1: Type.String({ minLength: 1, maxLength: 200, description: 'Street and number.' }),
  line2: Type.Optional(Type.String({ maxLength: 200, description: 'Flat, floor, building.' })),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  region: Type.Optional(Type.String({ maxLength: 100, description: 'State, county or province, where the country uses one.' })),
  postalCode: Type.Optional(Type.String({
    maxLength: 20,
    description: 'Checked against the country\'s format (postcode-validator): required where the country has postal codes, e.g. a US ZIP `94103` or a UK postcode `SW1A 1AA`; may be left out where it has none (e.g. `HK`).',
  })),
  country: Country,
}, {
  additionalProperties: false,
  // No $id: it appears twice in one Transaction (the delivery address and the pickup point's), which one id cannot name.
  description: 'A postal address (our reading of the reference\'s `address`).',
  examples: [{ line1: '1 Market St', line2: 'Suite 300', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' }],
});
export type Address = Static<typeof Address>;

export const DeliveryZone = Type.Object({
  id: Id('Your id for the zone, unique in the product; what `deliveryLocation` names (e.g. `domestic`).'),
  name: Type.String({ minLength: 1, maxLength: 100, description: 'What the buyer sees, e.g. "United States".' }),
  countries: Type.Array(Country, { minItems: 1, maxItems: 250, description: 'The countries it delivers to (ISO 3166-1 alpha-2).' }),
  prices: Type.Array(MoneyInput, { minItems: 1, maxItems: 20, description: 'The delivery price, one per currency; a link in a currency the zone has no price in cannot use it.' }),
}, { additionalProperties: false, examples: [{ id: 'eu', name: 'European Union', countries: ['DE', 'FR', 'NL'], prices: [{ amount: 7.5, currency: 'EUR' }] }] });
export type DeliveryZone = Static<typeof DeliveryZone>;

export const PickupLocation = Type.Object({
  id: Id('Your id for the pickup point, unique in the product; what `pickupLocation` names (e.g. `studio`).'),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  address: Address,
  openingHours: Type.String({ minLength: 1, maxLength: 300, description: 'In words, as the buyer should read them, e.g. "Mon–Fri 10:00–18:00".' }),
}, {
  additionalProperties: false,
  examples: [{ id: 'studio', name: 'Our studio', address: { line1: '12 Canal St', city: 'London', postalCode: 'E1 6AN', country: 'GB' }, openingHours: 'Mon–Fri 10:00–18:00' }],
});
export type PickupLocation = Static<typeof PickupLocation>;

export const ShippingSettings = Type.Object({
  deliveryZones: Type.Optional(Type.Array(DeliveryZone, { maxItems: 50, description: 'Where the product is delivered to, and at what price.' })),
  pickupLocations: Type.Optional(Type.Array(PickupLocation, { maxItems: 50, description: 'Where the buyer may collect it instead, free of charge.' })),
}, {
  additionalProperties: false,
  $id: 'ShippingSettings',
  description: 'Our addition: how a physical product reaches the buyer (docs/shipping.md). At least one delivery zone or pickup point.',
  examples: [{
    deliveryZones: [
      { id: 'us', name: 'United States', countries: ['US'], prices: [{ amount: 5, currency: 'USD' }] },
      { id: 'world', name: 'Rest of the world', countries: ['CA', 'GB', 'DE', 'FR', 'JP'], prices: [{ amount: 15, currency: 'USD' }] },
    ],
    pickupLocations: [{ id: 'studio', name: 'Our studio', address: { line1: '500 Howard St', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' }, openingHours: 'Mon–Fri 10:00–18:00' }],
  }],
});
export type ShippingSettings = Static<typeof ShippingSettings>;

export const FulfilmentStatus = Type.Union([Type.Literal('unfulfilled'), Type.Literal('shipped'), Type.Literal('ready_for_pickup'), Type.Literal('picked_up')]);
export type FulfilmentStatus = Static<typeof FulfilmentStatus>;

/** What a physical order chose at checkout, on its transaction. */
export const OrderShipping = Type.Object({
  method: Type.Union([Type.Literal('delivery'), Type.Literal('pickup')]),
  amount: Type.Number({ description: 'The delivery price added to the order as its own line, as a decimal in the transaction\'s currency (0 for pickup).' }),
  deliveryLocation: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'The delivery zone chosen.' })),
  address: Type.Optional(Address),
  pickupLocation: Type.Optional(PickupLocation),
}, {
  $id: 'OrderShipping',
  description: 'Our addition, on orders of physical products: delivery to `address` in a zone, or a pickup point.',
  examples: [{ method: 'delivery', amount: 5, deliveryLocation: { id: 'us', name: 'United States' }, address: { line1: '1 Market St', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' } }],
});
export type OrderShipping = Static<typeof OrderShipping>;

export const Fulfilment = Type.Object({
  status: { ...FulfilmentStatus, description: '`unfulfilled` → `shipped` (delivery), or `unfulfilled` → `ready_for_pickup` → `picked_up` (pickup).' },
  carrier: Type.Optional(Type.String({ description: 'Who carries it, once shipped.' })),
  trackingNumber: Type.Optional(Type.String()),
  trackingUrl: Type.Optional(Type.String({ format: 'uri' })),
  shippedAt: Type.Optional(Timestamp),
  readyForPickupAt: Type.Optional(Timestamp),
  pickedUpAt: Type.Optional(Timestamp),
}, {
  $id: 'Fulfilment',
  description: 'Our addition, on orders of physical products: where sending or handing it over stands.',
  examples: [{ status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490', shippedAt: '2026-11-24T10:00:00.000Z' }],
});
export type Fulfilment = Static<typeof Fulfilment>;

export const FulfilmentBody = Type.Object({
  status: Type.Union([Type.Literal('shipped'), Type.Literal('ready_for_pickup'), Type.Literal('picked_up')], {
    description: 'The next step: `shipped` for a delivery, `ready_for_pickup` then `picked_up` for a pickup.',
  }),
  carrier: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required with `shipped`: e.g. USPS, Royal Mail, DHL.' })),
  trackingNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required with `shipped`.' })),
  trackingUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'With `shipped`: an http(s) page where the buyer follows the parcel.' })),
}, {
  additionalProperties: false,
  $id: 'FulfilmentRequest',
  examples: [{ status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490' }],
});
export type FulfilmentBody = Static<typeof FulfilmentBody>;
