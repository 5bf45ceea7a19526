import { Type, type Static } from 'typebox';
import { Availability } from '../bookings/schemas.ts';
import { ShippingSettings } from '../shipping/schemas.ts';
import { checkoutFieldFields, hubFields, itemFields, productFields, tierFields } from './fields.ts';

/**
 * The catalog file `catalog load` reads (README, "Catalog files"), a documented contract: it
 * keeps accepting every file it accepted before the API could write the catalog. Each hub,
 * product, tier and item has a `ref`: a name unique in the file that other entries point at and
 * that the command prints next to the id it created. The fields themselves are the API's
 * (catalog/fields.ts), so a file and an API write are held to the same shapes and rules.
 */
export const refPattern = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';
const Ref = Type.String({ pattern: refPattern });

export const CatalogTier = Type.Object({
  ref: Ref,
  ...tierFields,
  items: Type.Optional(Type.Array(Ref)),
}, { additionalProperties: false });

export const CatalogItem = Type.Object({
  ref: Ref,
  ...itemFields,
  parent: Type.Optional(Ref),
}, { additionalProperties: false });

export const CatalogCheckoutField = Type.Object(checkoutFieldFields, { additionalProperties: false });

export const CatalogProduct = Type.Object({
  ref: Ref,
  ...productFields,
  hub: Type.Optional(Ref),
  tiers: Type.Array(CatalogTier, { minItems: 1 }),
  items: Type.Optional(Type.Array(CatalogItem)),
  checkoutFields: Type.Optional(Type.Array(CatalogCheckoutField)),
  availability: Type.Optional(Availability),
  shipping: Type.Optional(ShippingSettings),
}, { additionalProperties: false });

export const CatalogHub = Type.Object({
  ref: Ref,
  ...hubFields,
  tiers: Type.Array(CatalogTier, { minItems: 1 }),
}, { additionalProperties: false });

export const Catalog = Type.Object({
  hubs: Type.Optional(Type.Array(CatalogHub)),
  products: Type.Optional(Type.Array(CatalogProduct)),
}, { additionalProperties: false });

export type Catalog = Static<typeof Catalog>;
export type CatalogTier = Static<typeof CatalogTier>;
export type CatalogItem = Static<typeof CatalogItem>;
export type CatalogProduct = Static<typeof CatalogProduct>;
export type CatalogHub = Static<typeof CatalogHub>;
