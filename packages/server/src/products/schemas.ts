import { Type, type Static, type TSchema } from 'typebox';
import { checkoutFieldFields, checkoutFieldTypes, EventInput, itemFields, productFields as writableFields, tierFields } from '../catalog/fields.ts';
import { refPattern } from '../catalog/schema.ts';
import { Money } from '../money.ts';
import { Timestamp, OneOf } from '../http/shapes.ts';
import { Availability } from '../bookings/schemas.ts';
import { ShippingSettings } from '../shipping/schemas.ts';


export const EventDetails = Type.Object({
  eventType: OneOf(['in_person', 'online', 'hybrid'], { description: '`in_person`, `online` or `hybrid`.' }),
  venue: Type.String(),
  dateTime: Timestamp,
  endDate: Type.Optional(Timestamp),
});

export const Recurrence = Type.Object({
  periodic: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('yearly')]),
  interval: Type.Number({ description: 'Bill every `interval` periods.' }),
  count: Type.Number({ description: 'Number of billing periods; 0 means until cancelled.' }),
});

export const Tier = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: OneOf(['free', 'one_off', 'recurring', 'pay_what_you_want'], { description: '`free`, `one_off`, `recurring` or `pay_what_you_want`.' }),
  price: Money,
  discount: Type.Optional(Money),
  recurrence: Type.Optional(Recurrence),
  perks: Type.Array(Type.String()),
  buttonText: Type.Optional(Type.String()),
  timeBound: Type.Optional(Timestamp),
  slots: Type.Optional(Type.Number()),
  noOfTickets: Type.Number(),
  itemIDs: Type.Array(Type.String()),
  isDefault: Type.Boolean(),
  archived: Type.Boolean(),
  status: Type.String(),
}, { $id: 'Tier' });

export const ItemContent = Type.Object({
  kind: Type.Union([Type.Literal('file'), Type.Literal('url')], { description: '`file`: uploaded with PUT /products/{id}/items/{itemId}/file; `url`: a link set with PUT …/content.' }),
  url: Type.Optional(Type.String({ description: 'The link buyers open (kind `url`).' })),
  fileName: Type.Optional(Type.String({ description: 'The file\'s name as buyers download it (kind `file`).' })),
  contentType: Type.Optional(Type.String({ description: 'Its media type, such as application/pdf or audio/mpeg.' })),
  size: Type.Optional(Type.Number({ description: 'Its size in bytes.' })),
  sha256: Type.Optional(Type.String({ description: 'The SHA-256 of its bytes, hex.' })),
  version: Type.Optional(Type.Number({ description: '1 for the first upload, one more for each replacement: buyers always get the newest.' })),
  updatedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When this version was uploaded.' })),
}, {
  $id: 'ItemContent',
  description: 'Our addition: what a buyer of the item gets (docs/files.md).',
  examples: [{ kind: 'file', fileName: 'ink-basics.pdf', contentType: 'application/pdf', size: 2481152, sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', version: 2, updatedAt: '2026-11-20T14:03:11.000Z' }],
});

export const ItemContentBody = Type.Object({
  url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'An http(s) link buyers open from the portal (a video page, a shared folder).' }),
}, { additionalProperties: false, $id: 'ItemContentBody', examples: [{ url: 'https://video.example.com/ink-night/recording' }] });

export const Item = Type.Object({
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  image: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Number()),
  isAddon: Type.Boolean(),
  parentId: Type.Optional(Type.String()),
  price: Type.Optional(Money),
  archived: Type.Optional(Type.Boolean({ description: 'Our addition: present (true) on an item kept only for what was sold; absent otherwise.' })),
  content: Type.Optional(ItemContent),
}, { $id: 'Item' });

export const CheckoutField = Type.Object({
  id: Type.String({ description: 'The key used in formData and in import records; derived from the label.' }),
  label: Type.String(),
  type: OneOf(checkoutFieldTypes, { description: 'text, email, phone, number, select, checkbox or date.' }),
  required: Type.Boolean(),
  options: Type.Optional(Type.Array(Type.String())),
}, { $id: 'CheckoutField' });

const productFields = {
  id: Type.String(),
  type: OneOf(['digital', 'course', 'event', 'service', 'membership', 'physical', 'appointment'], { description: '`digital`, `course`, `event`, `service`, `membership`, `physical` (with `shipping`, our addition), or `appointment` (our addition: bookable, with `availability`).' }),
  status: OneOf(['draft', 'published', 'archived'], { description: '`draft`, `published` or `archived`.' }),
  title: Type.String(),
  description: Type.String(),
  imageUrl: Type.Optional(Type.String({ format: 'uri' })),
  url: Type.Optional(Type.String({ format: 'uri', description: 'The creator\'s own page for the product; when they set none, the product page of this service\'s storefront (/s/{brand}/p/{id}, docs/storefront.md).' })),
  visibility: OneOf(['public', 'unlisted', 'private'], { description: '`public`, `unlisted` or `private`.' }),
  isFree: Type.Boolean(),
  keywords: Type.Array(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  event: Type.Optional(EventDetails),
  hubID: Type.Optional(Type.String({ description: 'Our addition: the hub this product belongs to, when it belongs to one.' })),
};

export const ProductSummary = Type.Object(productFields, { $id: 'ProductSummary' });

export const Product = Type.Object({
  ...productFields,
  tiers: Type.Array(Tier),
  items: Type.Array(Item),
  checkoutFields: Type.Array(CheckoutField),
  availability: Type.Optional(Availability),
  shipping: Type.Optional(ShippingSettings),
}, { $id: 'Product' });

export type ProductSummary = Static<typeof ProductSummary>;
export type Product = Static<typeof Product>;
export type Tier = Static<typeof Tier>;
export type Item = Static<typeof Item>;
export type ItemContent = Static<typeof ItemContent>;
export type CheckoutField = Static<typeof CheckoutField>;

// What POST /products and PATCH /products/{id} take (docs/catalog.md). The fields are the catalog
// file's (catalog/fields.ts); over the API, entries point at each other by id, or by the `ref` of
// an item added in the same request.

const nullable = <T extends TSchema>(schema: T, description: string) => Type.Optional(Type.Union([schema, Type.Null()], { description }));

export const TierInput = Type.Object({
  id: Type.Optional(Type.String({ description: 'A tier of this product (or hub) to update; leave out to add a tier.' })),
  ...tierFields,
  itemIDs: Type.Optional(Type.Array(Type.String(), { description: 'Items this tier includes: item ids, or the `ref` of an item added in the same request.' })),
}, { additionalProperties: false, $id: 'TierInput' });

export const ItemInput = Type.Object({
  id: Type.Optional(Type.String({ description: 'An item of this product to update; leave out to add an item.' })),
  ref: Type.Optional(Type.String({ pattern: refPattern, description: 'A name for a new item, unique in the request, so `itemIDs` and `parentId` can point at it before it has an id.' })),
  ...itemFields,
  parentId: Type.Optional(Type.String({ description: 'The item this one nests under: an item id, or the `ref` of an item added in the same request.' })),
}, { additionalProperties: false, $id: 'ItemInput' });

export const CheckoutFieldInput = Type.Object({
  id: Type.Optional(Type.String({ description: 'A field of this product to update (its id stays, whatever the new label); leave out to add a field, whose id is derived from its label.' })),
  ...checkoutFieldFields,
}, { additionalProperties: false, $id: 'CheckoutFieldInput' });

const lists = {
  tiers: Type.Array(TierInput, { minItems: 1, description: 'The whole list, in order. An entry with an id updates that tier; one without adds a tier; a tier left out is deleted, or archived if it was ever sold.' }),
  items: Type.Optional(Type.Array(ItemInput, { description: 'The whole list, in order. An item left out is deleted, or archived while a tier still includes it.' })),
  checkoutFields: Type.Optional(Type.Array(CheckoutFieldInput, { description: 'The whole list, in order. A field left out is deleted; answers already given stay with the members.' })),
};

export const ProductCreateBody = Type.Object({
  ...writableFields,
  hubID: Type.Optional(Type.String({ description: 'A hub of the brand this product belongs to.' })),
  ...lists,
  availability: Type.Optional(Availability),
  shipping: Type.Optional(ShippingSettings),
}, { additionalProperties: false, $id: 'ProductCreateBody' });

export const ProductUpdateBody = Type.Object({
  type: Type.Optional(writableFields.type),
  title: Type.Optional(writableFields.title),
  description: nullable(Type.String(), 'null or "" clears it.'),
  status: writableFields.status,
  visibility: writableFields.visibility,
  imageUrl: nullable(Type.String({ format: 'uri' }), 'null clears it.'),
  url: nullable(Type.String({ format: 'uri' }), 'null clears it.'),
  keywords: writableFields.keywords,
  event: nullable(EventInput, 'null clears it (a product of type event needs one).'),
  hubID: nullable(Type.String(), 'A hub of the brand; null takes the product out of its hub.'),
  tiers: Type.Optional(lists.tiers),
  items: lists.items,
  checkoutFields: lists.checkoutFields,
  availability: nullable(Availability, 'The whole availability of a bookable (appointment) product; null clears it (for a product changing to another type).'),
  shipping: nullable(ShippingSettings, 'The whole shipping settings of a physical product (delivery zones and pickup locations); null clears them.'),
}, { additionalProperties: false, $id: 'ProductUpdateBody' });

export type TierInput = Static<typeof TierInput>;
export type ItemInput = Static<typeof ItemInput>;
export type CheckoutFieldInput = Static<typeof CheckoutFieldInput>;
export type ProductCreateBody = Static<typeof ProductCreateBody>;
export type ProductUpdateBody = Static<typeof ProductUpdateBody>;
