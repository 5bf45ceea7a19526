import { Type, type Static } from 'typebox';
import { BookingRequest } from '../bookings/schemas.ts';
import { Address } from '../shipping/schemas.ts';

// The body of POST /payment-links, field for field as the reference tables it. Unknown fields
// are refused rather than ignored (a typo such as `metdata` must not silently drop data);
// formData is open because checkout-field ids are the product's own, and the service checks them.

const Text = (description?: string) => Type.String({ minLength: 1, maxLength: 500, ...(description ? { description } : {}) });

const FieldValue = Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Boolean()]);

export const PaymentLinkItem = Type.Object({
  id: Text('A product id of your brand, or a hub id to sell one of the hub\'s plans.'),
  plan: Text('A tier id of that product (or hub).'),
  type: Text('The product\'s `type` (`membership` for a hub); must match the catalog.'),
  hubID: Type.Optional(Text('The hub the product belongs to; the buyer also becomes a member of it.')),
  affiliate: Type.Optional(Text('The code of an active affiliate of your brand (POST /affiliates); the sale earns it a commission (docs/affiliates.md). An unknown code is refused.')),
  selected: Type.Optional(Type.Array(Text(), {
    maxItems: 100,
    description: 'Ids of items included in the tier that the buyer picked; shown at checkout; no effect on the price.',
  })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'How many of this tier; multiplies its price. Default 1.' })),
  customAmount: Type.Optional(Type.Number({
    minimum: 0,
    maximum: 1e9,
    description: 'Pay-what-you-want tiers only: the unit price the buyer chose, as a decimal amount; at least the tier price.',
  })),
}, { additionalProperties: false });

export const Guest = Type.Object({
  id: Text('Your id for this guest.'),
  fullName: Text(),
  email: Type.String({ format: 'email', maxLength: 320 }),
}, { additionalProperties: false });

export const FormData = Type.Object({
  fullName: Text('The buyer\'s name.'),
  email: Type.String({ format: 'email', maxLength: 320, description: 'The buyer\'s email.' }),
  phone: Type.Optional(Type.String({ maxLength: 40, description: 'Copied to the membership\'s `phone`.' })),
}, {
  additionalProperties: FieldValue,
  description: 'The buyer\'s answers keyed by checkout-field id: `fullName`, `email`, optional `phone`, and the product\'s checkout fields '
    + '(every required one must be present; unknown keys are refused).',
});

export const PaymentLinkBody = Type.Object({
  items: Type.Array(PaymentLinkItem, { minItems: 1, maxItems: 20 }),
  form: Type.Object({
    formData: FormData,
    guests: Type.Optional(Type.Array(Guest, {
      maxItems: 100,
      description: 'The other attendees when an event purchase holds several tickets: exactly one per ticket beyond the buyer\'s.',
    })),
  }, { additionalProperties: false }),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; if given, must be the catalog currency of the items (there is no conversion).' })),
  coupon: Type.Optional(Type.String({ maxLength: 100, description: 'A coupon code of the brand (docs/coupons.md), matched ignoring case: its discount is taken off the link\'s amount and shown as a line item. One that cannot be used is a 400 naming `coupon` with the reason.' })),
  countryCode: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2; recorded on the link.' })),
  addons: Type.Optional(Type.Array(Text(), { maxItems: 50, description: 'Add-on item ids of the products bought; each adds its price once.' })),
  booking: Type.Optional(BookingRequest),
  address: Type.Optional(Address),
  deliveryLocation: Type.Optional(Type.String({
    minLength: 1, maxLength: 100,
    description: 'For a physical product with shipping settings (docs/shipping.md): the id of one of its delivery zones; its countries must include `address.country`, '
      + 'and its price in the link\'s currency is added to the order as a line of its own. Requires `address`; not with `pickupLocation`.',
  })),
  pickupLocation: Type.Optional(Type.String({
    minLength: 1, maxLength: 100,
    description: 'For a physical product with shipping settings: the id of one of its pickup locations, where the buyer collects it (no address, no delivery price). Not with `deliveryLocation`.',
  })),
  redirectUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'http(s) address the buyer is sent to after paying, with `txref` and `status` added to its query.' })),
  metadata: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 500 }), {
    maxProperties: 50,
    propertyNames: { maxLength: 40 },
    description: 'Up to 50 string keys (40 characters) with string values (500 characters); returned on the transaction.',
  })),
  utmRef: Type.Optional(Type.String({ maxLength: 500 })),
  adClickID: Type.Optional(Type.String({ maxLength: 500 })),
  adType: Type.Optional(Type.String({ maxLength: 100 })),
  checkoutOtpVerificationSkipped: Type.Optional(Type.Boolean()),
  receive_emails: Type.Optional(Type.Boolean()),
}, { additionalProperties: false, $id: 'PaymentLinkRequest' });

export type PaymentLinkBody = Static<typeof PaymentLinkBody>;
export type PaymentLinkItem = Static<typeof PaymentLinkItem>;

export const PaymentLink = Type.Object({
  link: Type.String({ format: 'uri', description: 'The hosted checkout page to send the buyer to; it can be paid once.' }),
  id: Type.String({ description: 'The payment link id; transactions made through it carry it.' }),
  amount: Type.Number({ description: 'The total the server computed from the catalog, as a decimal amount.' }),
  currency: Type.String(),
}, { $id: 'PaymentLink' });

export type PaymentLink = Static<typeof PaymentLink>;

export const VerifyBody = Type.Object({
  txref: Type.String({ minLength: 1, maxLength: 200, description: 'The transaction reference.' }),
}, { additionalProperties: false });
