import { Type, type Static } from 'typebox';

/**
 * The brand profile (our addition): what the public storefront, product and checkout pages show.
 * Every field but `id` may be absent until the creator sets it; PATCH takes `null` to clear one.
 */

export const slugPattern = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

const fields = {
  displayName: Type.String({ minLength: 1, maxLength: 100, description: 'The name buyers see; the brand\'s account name when unset.' }),
  slug: Type.String({
    minLength: 2,
    maxLength: 40,
    pattern: slugPattern,
    description: 'The storefront\'s address, /s/{slug}: lower-case letters, digits and single hyphens; unique across the service.',
  }),
  logoUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'An https:// (or http://) image address shown on the public pages.' }),
  accentColor: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'A colour such as #2b59c3 for buttons and links; it must be dark enough for white text.' }),
  supportEmail: Type.String({ format: 'email', maxLength: 320, description: 'Where buyers write for help; shown on the pages.' }),
  timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone (Europe/Lisbon) in which event dates and sale deadlines are shown.' }),
  defaultCurrency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code the dashboard proposes for new prices.' }),
  postalAddress: Type.String({
    minLength: 1, maxLength: 500,
    description: 'Our addition. The business\'s postal address, one line per line (`\\n` between them), printed on every invoice under the brand\'s name.',
    examples: ['Ink Studio Lda\nRua Augusta 100\n1100-053 Lisboa\nPortugal'],
  }),
  taxNumber: Type.String({ minLength: 1, maxLength: 64, description: 'Our addition. A tax number (VAT, GST, EIN…) printed on every invoice, as written (e.g. `PT123456789`).' }),
  embedOrigins: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    maxItems: 20,
    description: 'Our addition. The sites that may show this brand\'s checkout in the embeddable overlay (/embed.js), each an origin: '
      + '`https://` (or `http://`), a host and an optional port, no path. The checkout pages answer them as `Content-Security-Policy: '
      + 'frame-ancestors`; every other site is refused. Empty (the default): no site may frame the checkout.',
    examples: [['https://ink-studio.example', 'https://shop.ink-studio.example:8443']],
  }),
};

export const Brand = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'The account name given at sign-up.' }),
  displayName: Type.String({ description: 'The name buyers see: the profile\'s, or `name` when unset.' }),
  slug: Type.Optional(fields.slug),
  storefrontUrl: Type.String({ format: 'uri', description: 'The public storefront page (by slug, or by brand id until a slug is set).' }),
  logoUrl: Type.Optional(Type.String()),
  accentColor: Type.Optional(Type.String()),
  supportEmail: Type.Optional(Type.String()),
  timeZone: Type.Optional(Type.String()),
  defaultCurrency: Type.Optional(Type.String()),
  postalAddress: Type.Optional(Type.String({ description: 'The business\'s postal address printed on invoices, lines separated by `\\n`.' })),
  taxNumber: Type.Optional(Type.String({ description: 'The tax number printed on invoices.' })),
  embedOrigins: fields.embedOrigins,
}, { $id: 'Brand' });
export type Brand = Static<typeof Brand>;

const clearable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));

export const BrandUpdateBody = Type.Object({
  displayName: clearable(fields.displayName),
  slug: clearable(fields.slug),
  logoUrl: clearable(fields.logoUrl),
  accentColor: clearable(fields.accentColor),
  supportEmail: clearable(fields.supportEmail),
  timeZone: clearable(fields.timeZone),
  defaultCurrency: clearable(fields.defaultCurrency),
  postalAddress: clearable(fields.postalAddress),
  taxNumber: clearable(fields.taxNumber),
  embedOrigins: Type.Optional(Type.Union([fields.embedOrigins, Type.Null()])),
}, { additionalProperties: false, minProperties: 1, $id: 'BrandUpdateRequest' });
export type BrandUpdateBody = Static<typeof BrandUpdateBody>;
