import { Type, type Static } from 'typebox';
import { Money } from '../money.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const EventDetails = Type.Object({
  eventType: Type.String({ description: '`in_person`, `online` or `hybrid`.' }),
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
  type: Type.String({ description: '`free`, `one_off`, `recurring` or `pay_what_you_want`.' }),
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
}, { $id: 'Item' });

export const CheckoutField = Type.Object({
  id: Type.String({ description: 'The key used in formData and in import records; derived from the label.' }),
  label: Type.String(),
  type: Type.String({ description: 'text, email, phone, number, select, checkbox or date.' }),
  required: Type.Boolean(),
  options: Type.Optional(Type.Array(Type.String())),
}, { $id: 'CheckoutField' });

const productFields = {
  id: Type.String(),
  type: Type.String({ description: '`digital`, `course`, `event`, `service`, `membership` or `physical`.' }),
  status: Type.String({ description: '`draft`, `published` or `archived`.' }),
  title: Type.String(),
  description: Type.String(),
  imageUrl: Type.Optional(Type.String({ format: 'uri' })),
  url: Type.Optional(Type.String({ format: 'uri' })),
  visibility: Type.String({ description: '`public`, `unlisted` or `private`.' }),
  isFree: Type.Boolean(),
  keywords: Type.Array(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  event: Type.Optional(EventDetails),
};

export const ProductSummary = Type.Object(productFields, { $id: 'ProductSummary' });

export const Product = Type.Object({
  ...productFields,
  tiers: Type.Array(Tier),
  items: Type.Array(Item),
  checkoutFields: Type.Array(CheckoutField),
}, { $id: 'Product' });

export type ProductSummary = Static<typeof ProductSummary>;
export type Product = Static<typeof Product>;
export type Tier = Static<typeof Tier>;
export type Item = Static<typeof Item>;
export type CheckoutField = Static<typeof CheckoutField>;
