import type { Queryable } from '../db/client.ts';
import { catalogChanged } from '../catalog-cache/version.ts';
import { AppError, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import * as repo from './repository.ts';
import type { BrandProfileRow } from './repository.ts';
import type { Brand, BrandUpdateBody } from './schemas.ts';

/** GET and PATCH /brand: the brand profile the public pages show (docs/storefront.md). */

/** The storefront address of a brand: by slug, or by id until it has one. */
export const storefrontPath = (b: Pick<BrandProfileRow, 'id' | 'slug'>) => `/s/${encodeURIComponent(b.slug ?? b.id)}`;
/** The portal's address of a brand: by its slug, or its id until it has one (as the storefront's). */
export const portalPath = (brand: { id: string; slug: string | null }) => `/portal/${encodeURIComponent(brand.slug ?? brand.id)}`;

export function renderBrand(row: BrandProfileRow, publicUrl: string): Brand {
  return {
    id: row.id,
    name: row.name,
    displayName: row.display_name ?? row.name,
    ...(row.slug ? { slug: row.slug } : {}),
    storefrontUrl: `${publicUrl}${storefrontPath(row)}`,
    ...(row.logo_url ? { logoUrl: row.logo_url } : {}),
    ...(row.accent_color ? { accentColor: row.accent_color } : {}),
    ...(row.support_email ? { supportEmail: row.support_email } : {}),
    ...(row.time_zone ? { timeZone: row.time_zone } : {}),
    ...(row.default_currency ? { defaultCurrency: row.default_currency } : {}),
    ...(row.postal_address ? { postalAddress: row.postal_address } : {}),
    ...(row.tax_id ? { taxNumber: row.tax_id } : {}),
    embedOrigins: row.embed_origins,
  };
}

export async function getBrand(db: Queryable, principal: Principal, publicUrl: string): Promise<Brand> {
  const row = await repo.findProfile(db, principal.brandId);
  if (!row) throw notFound('brand');
  return renderBrand(row, publicUrl);
}

// Addresses the service serves itself under /s/… would be ambiguous as slugs of nobody in particular.
const reservedSlugs = new Set(['api', 'admin', 'checkout', 'dashboard', 'docs', 'static', 'assets', 'new', 'www']);

export async function updateBrand(tx: Queryable, principal: Principal, body: BrandUpdateBody, publicUrl: string): Promise<Brand> {
  const problems: ErrorDetail[] = [];
  if (body.slug && reservedSlugs.has(body.slug)) problems.push({ field: 'slug', message: `"${body.slug}" is reserved; choose another` });
  if (body.logoUrl && !/^https?:\/\/[^\s/@]+(\/|$)/i.test(body.logoUrl)) problems.push({ field: 'logoUrl', message: 'must be an http:// or https:// address' });
  if (body.timeZone && !isTimeZone(body.timeZone)) problems.push({ field: 'timeZone', message: `"${body.timeZone}" is not an IANA time zone such as Europe/Lisbon or America/New_York` });
  if (body.accentColor && contrastWithWhite(body.accentColor) < 4.5) {
    problems.push({ field: 'accentColor', message: `${body.accentColor} is too light for the white text of buttons (contrast ${contrastWithWhite(body.accentColor).toFixed(1)}:1, at least 4.5:1 is needed); choose a darker colour` });
  }
  if (body.displayName !== undefined && body.displayName !== null && !body.displayName.trim()) problems.push({ field: 'displayName', message: 'may not be blank' });
  const postalAddress = body.postalAddress === undefined || body.postalAddress === null ? body.postalAddress : addressLines(body.postalAddress).join('\n');
  if (postalAddress === '') problems.push({ field: 'postalAddress', message: 'may not be blank: send null to clear it' });
  if (postalAddress && postalAddress.split('\n').length > 8) problems.push({ field: 'postalAddress', message: 'may have at most 8 lines' });
  if (body.taxNumber !== undefined && body.taxNumber !== null && !body.taxNumber.trim()) problems.push({ field: 'taxNumber', message: 'may not be blank: send null to clear it' });
  const embedOrigins = body.embedOrigins?.map((o, i) => {
    const origin = embedOrigin(o);
    if (!origin) problems.push({ field: `embedOrigins[${i}]`, message: `"${o}" is not a site's origin: write https:// (or http://), the host and an optional port, with no path, like https://ink-studio.example` });
    return origin ?? o;
  });
  if (problems.length) throw invalidAll(problems);
  if (body.slug) {
    const holder = await repo.slugHolder(tx, body.slug, principal.brandId);
    if (holder) throw new AppError('conflict', `The slug "${body.slug}" is taken by another brand; choose another.`, [{ field: 'slug', message: 'is taken by another brand' }]);
  }
  const row = await repo.updateProfile(tx, principal.brandId, {
    slug: body.slug,
    display_name: body.displayName === undefined ? undefined : body.displayName?.trim() ?? null,
    logo_url: body.logoUrl,
    accent_color: body.accentColor?.toLowerCase() ?? body.accentColor,
    support_email: body.supportEmail,
    time_zone: body.timeZone,
    default_currency: body.defaultCurrency,
    postal_address: postalAddress,
    tax_id: body.taxNumber === undefined ? undefined : body.taxNumber?.trim() ?? null,
    embed_origins: body.embedOrigins === undefined ? undefined : [...new Set(embedOrigins ?? [])],
  }).catch((err: { code?: string }) => {
    // Two brands claiming one slug at the same instant: the unique index decides.
    if (err.code === '23505') throw new AppError('conflict', `The slug "${body.slug}" is taken by another brand; choose another.`, [{ field: 'slug', message: 'is taken by another brand' }]);
    throw err;
  });
  if (!row) throw notFound('brand');
  // Products' `url` and the cached storefront pages name the slug: they are read afresh.
  await catalogChanged(tx, principal.brandId);
  return renderBrand(row, publicUrl);
}

/**
 * A site's origin as browsers send it (`https://host[:port]`, lower-case, default port left out), or
 * undefined. Wildcards are refused: CSP would accept `https://*.example`, but an allow-list of
 * sites the creator names is what a buyer's card details should be shown inside.
 */
export function embedOrigin(value: string): string | undefined {
  if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?\/?$/i.test(value.trim())) return undefined;
  try {
    const url = new URL(value.trim());
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** WCAG contrast ratio of a #rrggbb colour against white. */
export function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (lum + 0.05);
}

/** An address as typed (any line ending, stray spaces, blank lines) as the lines an invoice prints. */
export function addressLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter(Boolean);
}
