import type { Queryable } from '../db/client.ts';

export type Plan = 'free' | 'plus';

export interface BrandRow {
  id: string;
  name: string;
  plan: Plan;
}

/** A brand's own request budgets (requests per second per key); null means the server default. */
export interface BrandRateLimits {
  rate_limit_live: number | null;
  rate_limit_test: number | null;
}

export async function insertBrand(db: Queryable, b: BrandRow): Promise<BrandRow> {
  const [row] = await db.query<BrandRow>('INSERT INTO brands (id, name, plan) VALUES ($1, $2, $3) RETURNING id, name, plan', [b.id, b.name, b.plan]);
  return row;
}

export async function findBrand(db: Queryable, id: string): Promise<BrandRow | undefined> {
  const [row] = await db.query<BrandRow>('SELECT id, name, plan FROM brands WHERE id = $1', [id]);
  return row;
}

export async function findRateLimits(db: Queryable, id: string): Promise<BrandRateLimits | undefined> {
  const [row] = await db.query<BrandRateLimits>('SELECT rate_limit_live, rate_limit_test FROM brands WHERE id = $1', [id], 'brand_rate_limits');
  return row;
}

export async function setPlan(db: Queryable, id: string, plan: Plan): Promise<BrandRow | undefined> {
  const [row] = await db.query<BrandRow>('UPDATE brands SET plan = $2 WHERE id = $1 RETURNING id, name, plan', [id, plan]);
  return row;
}

/** Sets the brand's budgets; undefined leaves one as it is, null returns it to the server default. */
export async function setRateLimits(db: Queryable, id: string, limits: { live?: number | null; test?: number | null }): Promise<(BrandRow & BrandRateLimits) | undefined> {
  const [row] = await db.query<BrandRow & BrandRateLimits>(
    `UPDATE brands SET rate_limit_live = CASE WHEN $2 THEN $3::integer ELSE rate_limit_live END,
                       rate_limit_test = CASE WHEN $4 THEN $5::integer ELSE rate_limit_test END
     WHERE id = $1 RETURNING id, name, plan, rate_limit_live, rate_limit_test`,
    [id, limits.live !== undefined, limits.live ?? null, limits.test !== undefined, limits.test ?? null],
  );
  return row;
}

/** Every brand's id, for work that goes brand by brand (retention). */
export async function allBrandIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('SELECT id FROM brands ORDER BY id')).map((r) => r.id);
}

/** The brand's public profile (migration 023): what the storefront and checkout pages show. */
export interface BrandProfileRow extends BrandRow {
  slug: string | null;
  display_name: string | null;
  logo_url: string | null;
  accent_color: string | null;
  support_email: string | null;
  time_zone: string | null;
  default_currency: string | null;
  /** Origins that may frame the checkout pages (migration 028). */
  embed_origins: string[];
  /** What invoices print under the brand's name (migration 036). */
  postal_address: string | null;
  tax_id: string | null;
}

const profileColumns = 'id, name, plan, slug, display_name, logo_url, accent_color, support_email, time_zone, default_currency, embed_origins, postal_address, tax_id';

export async function findProfile(db: Queryable, id: string): Promise<BrandProfileRow | undefined> {
  const [row] = await db.query<BrandProfileRow>(`SELECT ${profileColumns} FROM brands WHERE id = $1`, [id]);
  return row;
}

/** The brand a storefront address names: its slug, or its id (brands without a slug yet). */
export async function findProfileBySlugOrId(db: Queryable, slugOrId: string): Promise<BrandProfileRow | undefined> {
  const [row] = await db.query<BrandProfileRow>(
    `SELECT ${profileColumns} FROM brands WHERE slug = $1 OR (id = $1 AND slug IS NULL) LIMIT 1`, [slugOrId]);
  return row;
}

/** The brand (not `except`) holding a slug, if any. */
export async function slugHolder(db: Queryable, slug: string, except: string): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM brands WHERE slug = $1 AND id <> $2', [slug, except]);
  return row?.id;
}

export type ProfileChange = Partial<Omit<BrandProfileRow, 'id' | 'name' | 'plan'>>;

/** Sets the profile columns present in `change` (null clears one); the others stay as they are. */
export async function updateProfile(db: Queryable, id: string, change: ProfileChange): Promise<BrandProfileRow | undefined> {
  const allowed = ['slug', 'display_name', 'logo_url', 'accent_color', 'support_email', 'time_zone', 'default_currency', 'embed_origins', 'postal_address', 'tax_id'] as const;
  const set = allowed.filter((c) => change[c] !== undefined);
  if (!set.length) return findProfile(db, id);
  const [row] = await db.query<BrandProfileRow>(
    `UPDATE brands SET ${set.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING ${profileColumns}`,
    [id, ...set.map((c) => change[c] ?? null)],
  );
  return row;
}
