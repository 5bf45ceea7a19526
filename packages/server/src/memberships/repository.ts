import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { bumpVersionSql } from '../object-version.ts';

export interface MembershipRow {
  brand_id: string;
  id: string;
  mode: Mode;
  hub_id: string | null;
  product_id: string | null;
  name: string;
  email: string;
  phone: string | null;
  fields: Record<string, unknown>;
  status: 'active' | 'expired' | 'removed' | 'cancelled';
  plan: string | null;
  /** The subscription paying for it, when bought on a recurring tier. */
  subscription_id: string | null;
  /** Marketing consent from the checkout form's opt-in (migration 023); null when never asked. */
  receive_emails?: boolean | null;
  joined_at: Date;
  created_at: Date;
  /** Incremented, with updated_at, by every UPDATE here (object-version.ts). */
  version: number;
  updated_at: Date;
}

export type NewMembership = Pick<MembershipRow, 'brand_id' | 'id' | 'mode' | 'hub_id' | 'product_id' | 'name' | 'email' | 'plan'> &
  Partial<Pick<MembershipRow, 'phone' | 'fields' | 'status' | 'joined_at'>>;

/**
 * Inserts a membership unless this person (email, case-insensitive) already holds one of the
 * same hub or product in the same mode. Returns the new row, or undefined when it already existed.
 */
export async function insertMembership(db: Queryable, m: NewMembership): Promise<MembershipRow | undefined> {
  const [row] = await db.query<MembershipRow>(
    `INSERT INTO memberships (brand_id, id, mode, hub_id, product_id, name, email, phone, fields, status, plan, joined_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE($12, date_trunc('milliseconds', clock_timestamp())))
     ON CONFLICT DO NOTHING
     RETURNING *`,
    [m.brand_id, m.id, m.mode, m.hub_id, m.product_id, m.name, m.email, m.phone ?? null, m.fields ?? {}, m.status ?? 'active', m.plan, m.joined_at ?? null],
  );
  return row;
}

/** What every membership of one bulk insert shares. */
export type MembershipBatch = Pick<MembershipRow, 'brand_id' | 'mode' | 'hub_id' | 'product_id' | 'status' | 'plan'>;

/** One person of a bulk insert. */
export type MembershipPerson = Pick<MembershipRow, 'id' | 'name' | 'email' | 'phone' | 'fields'>;

/**
 * insertMembership for many people in one statement (bulk imports). People who already hold a
 * membership of the same hub or product in the same mode, or who repeat an earlier person of
 * this call, are skipped; only the rows actually inserted are returned. Rows are inserted in the
 * order given (callers sort them so concurrent inserts lock in the same order), and all share one
 * timestamp (joined, created and updated), as people imported together do (docs/imports.md).
 */
export async function insertMemberships(db: Queryable, batch: MembershipBatch, people: MembershipPerson[]): Promise<MembershipRow[]> {
  if (!people.length) return [];
  // One JSON parameter for the people rather than an array per column: a single native
  // JSON.stringify here, one parse there, on PGlite and pg alike. Timestamps come back as epoch
  // milliseconds: parsing three timestamp strings per person cost more than the insert itself.
  const rows = await db.query<Omit<MembershipRow, 'joined_at' | 'created_at' | 'updated_at'> & { joined_ms: number; created_ms: number; updated_ms: number }>(
    `WITH now AS (SELECT date_trunc('milliseconds', clock_timestamp()) AS at)
     INSERT INTO memberships (brand_id, id, mode, hub_id, product_id, name, email, phone, fields, status, plan, joined_at, created_at, updated_at)
     SELECT $1, p.id, $2, $3, $4, p.name, p.email, p.phone, p.fields, $5, $6, now.at, now.at, now.at
     FROM now, ROWS FROM (json_to_recordset($7::json) AS (id text, name text, email text, phone text, fields jsonb)) WITH ORDINALITY AS p (id, name, email, phone, fields, n)
     ORDER BY p.n
     ON CONFLICT DO NOTHING
     RETURNING brand_id, id, mode, hub_id, product_id, name, email, phone, fields, status, plan, subscription_id, version,
       (extract(epoch FROM joined_at) * 1000)::float8 AS joined_ms, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms,
       (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms`,
    [batch.brand_id, batch.mode, batch.hub_id, batch.product_id, batch.status, batch.plan, JSON.stringify(people)],
    'insert_memberships',
  );
  return rows.map(({ joined_ms: joined, created_ms: created, updated_ms: updated, ...row }) => (
    { ...row, joined_at: new Date(joined), created_at: new Date(created), updated_at: new Date(updated) }));
}

/**
 * An import's second step, for the people insertMemberships skipped: memberships of the batch's
 * hub or product that were removed or expired become active again on the batch's plan (same id,
 * joined now), as a buyer who pays again is (activateMembership). The import grants access
 * without billing, so the ended subscription no longer pays for it. Rows are locked in email
 * order, as the insert takes them, so two imports to one hub wait instead of deadlocking.
 */
export async function reactivateMemberships(db: Queryable, batch: MembershipBatch, emails: string[]): Promise<MembershipRow[]> {
  if (!emails.length) return [];
  const target = batch.hub_id !== null ? 'hub_id' : 'product_id';
  return db.query<MembershipRow>(
    `WITH ended AS (
       SELECT id FROM memberships
       WHERE brand_id = $1 AND mode = $2 AND ${target} = $3 AND lower(email) = ANY($5::text[]) AND status IN ('removed', 'expired')
       ORDER BY lower(email)
       FOR UPDATE
     )
     UPDATE memberships m
     SET status = 'active', plan = $4, subscription_id = NULL, joined_at = date_trunc('milliseconds', clock_timestamp()), ${bumpVersionSql}
     FROM ended
     WHERE m.brand_id = $1 AND m.id = ended.id
     RETURNING m.*`,
    [batch.brand_id, batch.mode, batch.hub_id ?? batch.product_id, batch.plan, emails.map((e) => e.toLowerCase())],
    `reactivate_memberships_${target}`,
  );
}

/** The memberships these people (emails, any case) hold of the batch's hub or product: id, email, status. */
export async function findPeople(db: Queryable, batch: MembershipBatch, emails: string[]): Promise<Pick<MembershipRow, 'id' | 'email' | 'status'>[]> {
  if (!emails.length) return [];
  const target = batch.hub_id !== null ? 'hub_id' : 'product_id';
  return db.query<Pick<MembershipRow, 'id' | 'email' | 'status'>>(
    `SELECT id, email, status FROM memberships
     WHERE brand_id = $1 AND mode = $2 AND ${target} = $3 AND lower(email) = ANY($4::text[])`,
    [batch.brand_id, batch.mode, batch.hub_id ?? batch.product_id, emails.map((e) => e.toLowerCase())],
    `find_import_people_${target}`,
  );
}

/** The list filters (MembershipListQuery): exact email ignoring case, and status. */
export interface MembershipFilter {
  email?: string;
  status?: MembershipRow['status'];
}

/** `AND ...` for the filter, with parameters numbered from `next`. */
function filterSql(filter: MembershipFilter, next: number): { sql: string; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  if (filter.email !== undefined) {
    params.push(filter.email);
    sql.push(`AND lower(email) = lower($${next + params.length - 1})`);
  }
  if (filter.status !== undefined) {
    params.push(filter.status);
    sql.push(`AND status = $${next + params.length - 1}`);
  }
  return { sql: sql.join(' '), params };
}

export function listHubMembers(db: Queryable, brandId: string, mode: Mode, hubId: string, filter: MembershipFilter, page: PageRequest) {
  const where = filterSql(filter, 5);
  const after = afterCursor(page, 5 + where.params.length);
  return db.query<MembershipRow>(
    `SELECT * FROM memberships
     WHERE brand_id = $1 AND mode = $2 AND hub_id = $3 ${where.sql} ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $4`,
    [brandId, mode, hubId, page.limit + 1, ...where.params, ...after.params],
  );
}

export async function findHubMember(db: Queryable, brandId: string, mode: Mode, hubId: string, id: string) {
  const [row] = await db.query<MembershipRow>(
    'SELECT * FROM memberships WHERE brand_id = $1 AND mode = $2 AND hub_id = $3 AND id = $4',
    [brandId, mode, hubId, id],
  );
  return row;
}

/** The product's customers; with no status filter, the active ones (the reference's list). */
export function listProductCustomers(db: Queryable, brandId: string, mode: Mode, productId: string, filter: MembershipFilter, page: PageRequest) {
  const where = filterSql({ ...filter, status: filter.status ?? 'active' }, 5);
  const after = afterCursor(page, 5 + where.params.length);
  return db.query<MembershipRow>(
    `SELECT * FROM memberships
     WHERE brand_id = $1 AND mode = $2 AND product_id = $3 ${where.sql} ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $4`,
    [brandId, mode, productId, page.limit + 1, ...where.params, ...after.params],
  );
}

/**
 * Makes the person an active member of the hub or product (a purchase): inserts the membership,
 * or, when the person already holds one (of any status), makes it active on the new plan.
 * `joined` is true when the person was not an active member before this call.
 */
export async function activateMembership(db: Queryable, m: NewMembership): Promise<{ row: MembershipRow; joined: boolean }> {
  const inserted = await insertMembership(db, m);
  if (inserted) return { row: inserted, joined: true };
  const target = m.hub_id !== null ? 'hub_id' : 'product_id';
  const [row] = await db.query<MembershipRow & { was_active: boolean }>(
    `WITH prev AS (
       SELECT id, status FROM memberships
       WHERE brand_id = $1 AND mode = $2 AND ${target} = $3 AND lower(email) = lower($4)
       FOR UPDATE
     )
     UPDATE memberships m
     SET status = 'active', plan = $5, phone = COALESCE($6, m.phone), ${bumpVersionSql},
         joined_at = CASE WHEN prev.status = 'active' THEN m.joined_at ELSE date_trunc('milliseconds', clock_timestamp()) END
     FROM prev
     WHERE m.brand_id = $1 AND m.id = prev.id
     RETURNING m.*, prev.status = 'active' AS was_active`,
    [m.brand_id, m.mode, m.hub_id ?? m.product_id, m.email, m.plan, m.phone ?? null],
  );
  const { was_active: wasActive, ...membership } = row;
  return { row: membership, joined: !wasActive };
}

export async function findMembership(db: Queryable, brandId: string, mode: Mode, id: string, options: { forUpdate?: boolean } = {}) {
  const [row] = await db.query<MembershipRow>(
    `SELECT * FROM memberships WHERE brand_id = $1 AND mode = $2 AND id = $3${options.forUpdate ? ' FOR UPDATE' : ''}`, [brandId, mode, id]);
  return row;
}

/** Marks the memberships a subscription pays for. */
export async function attachSubscription(db: Queryable, brandId: string, ids: string[], subscriptionId: string): Promise<MembershipRow[]> {
  return db.query<MembershipRow>(
    `UPDATE memberships SET subscription_id = $3, ${bumpVersionSql} WHERE brand_id = $1 AND id = ANY($2::text[]) RETURNING *`,
    [brandId, ids, subscriptionId],
  );
}

/** Ends the active memberships a subscription pays for; returns the ones it ended. */
export async function endSubscriptionMemberships(db: Queryable, brandId: string, subscriptionId: string, status: 'expired' | 'removed'): Promise<MembershipRow[]> {
  return db.query<MembershipRow>(
    `UPDATE memberships SET status = $3, ${bumpVersionSql} WHERE brand_id = $1 AND subscription_id = $2 AND status = 'active' RETURNING *`,
    [brandId, subscriptionId, status],
  );
}

/** Ends one active membership; undefined when it was not active. */
export async function endMembership(db: Queryable, brandId: string, id: string, status: 'expired' | 'removed'): Promise<MembershipRow | undefined> {
  const [row] = await db.query<MembershipRow>(
    `UPDATE memberships SET status = $3, ${bumpVersionSql} WHERE brand_id = $1 AND id = $2 AND status = 'active' RETURNING *`, [brandId, id, status]);
  return row;
}

/** Which of these tiers some membership (any mode, any status) was granted on: they were sold, so they are archived, never deleted. */
export async function plansInUse(db: Queryable, brandId: string, tierIds: string[]): Promise<string[]> {
  // One probe of memberships_plan per tier, stopping at the first row: not every membership of a big hub.
  const rows = await db.query<{ plan: string }>(
    `SELECT t AS plan FROM unnest($2::text[]) AS t
     WHERE EXISTS (SELECT 1 FROM memberships WHERE brand_id = $1 AND plan = t)`,
    [brandId, tierIds],
  );
  return rows.map((r) => r.plan);
}

/** The person's membership of a hub or product (one per person, any status), by email as activateMembership matches it. */
export async function findByPerson(db: Queryable, brandId: string, mode: Mode, target: { hubId: string | null; productId: string | null }, email: string, options: { forUpdate?: boolean } = {}) {
  const column = target.hubId !== null ? 'hub_id' : 'product_id';
  const [row] = await db.query<MembershipRow>(
    `SELECT * FROM memberships WHERE brand_id = $1 AND mode = $2 AND ${column} = $3 AND lower(email) = lower($4)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [brandId, mode, target.hubId ?? target.productId, email],
  );
  return row;
}

/**
 * Records the buyer's answer to the checkout's email opt-in on what they bought: a tick gives
 * consent; an unticked box never takes back consent given before (withdrawing is its own act).
 */
export async function noteMarketingConsent(db: Queryable, brandId: string, ids: string[], consent: boolean): Promise<MembershipRow[]> {
  return db.query<MembershipRow>(
    `UPDATE memberships SET receive_emails = CASE WHEN $3 THEN true ELSE coalesce(receive_emails, false) END, ${bumpVersionSql}
     WHERE brand_id = $1 AND id = ANY($2::text[]) RETURNING *`,
    [brandId, ids, consent],
  );
}

/**
 * The person unsubscribed from the brand's marketing mail (a List-Unsubscribe POST, mail/unsubscribe.ts):
 * every membership of theirs with the brand in this mode says no from now on. Returns the memberships changed.
 */
export async function withdrawMarketingConsent(db: Queryable, brandId: string, mode: Mode, email: string): Promise<MembershipRow[]> {
  return db.query<MembershipRow>(
    `UPDATE memberships SET receive_emails = false, ${bumpVersionSql}
     WHERE brand_id = $1 AND mode = $2 AND lower(email) = lower($3) AND receive_emails IS DISTINCT FROM false RETURNING *`,
    [brandId, mode, email],
  );
}

/** Whether the person still says yes to the brand's marketing mail in this mode (some membership of theirs does). */
export async function consentsToMarketing(db: Queryable, brandId: string, mode: Mode, email: string): Promise<boolean> {
  const [row] = await db.query<{ yes: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM memberships WHERE brand_id = $1 AND mode = $2 AND lower(email) = lower($3) AND receive_emails = true) AS yes',
    [brandId, mode, email],
  );
  return row.yes;
}

/**
 * How many people (by email, case-insensitive) joined for the first time in each window: their
 * earliest membership of the mode, whatever its status now, began at or after `since` and before
 * `until`. Someone who already held a membership and buys another is not new.
 */
export async function newPeople(db: Queryable, brandId: string, mode: Mode, windows: { since: Date; until: Date }[]): Promise<number[]> {
  const rows = await db.query<{ i: number; people: number }>(
    `WITH firsts AS (
       SELECT lower(email) AS person, min(joined_at) AS first_joined FROM memberships
       WHERE brand_id = $1 AND mode = $2 GROUP BY lower(email)
     )
     SELECT w.i::integer AS i, count(f.person)::integer AS people
     FROM unnest($3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY AS w(since, until, i)
     LEFT JOIN firsts f ON f.first_joined >= w.since AND f.first_joined < w.until
     GROUP BY w.i ORDER BY w.i`,
    [brandId, mode, windows.map((w) => w.since.toISOString()), windows.map((w) => w.until.toISOString())],
  );
  return rows.map((r) => r.people);
}

/** Every membership of one person (a lower-cased email) in a mode, newest first: their customer page. */
export function membershipsOfPerson(db: Queryable, brandId: string, mode: Mode, person: string) {
  return db.query<MembershipRow>(
    'SELECT * FROM memberships WHERE brand_id = $1 AND mode = $2 AND lower(email) = $3 ORDER BY created_at DESC, id DESC',
    [brandId, mode, person],
  );
}

/**
 * Who may open the item now and said yes to the brand's marketing mail: one row per address,
 * among the active memberships that include the item (the rule of entitledItems in
 * portal/repository.ts, from the other side) whose `receive_emails` is true. The "new in
 * <product>" mail goes to them.
 */
export function consentingAudience(db: Queryable, brandId: string, mode: Mode, itemId: string): Promise<{ email: string; name: string }[]> {
  return db.query<{ email: string; name: string }>(
    `SELECT DISTINCT ON (lower(m.email)) lower(m.email) AS email, m.name
     FROM items i
     JOIN products p ON p.brand_id = i.brand_id AND p.id = i.product_id
     JOIN memberships m ON m.brand_id = i.brand_id AND (m.product_id = p.id OR (m.hub_id IS NOT NULL AND m.hub_id = p.hub_id))
     LEFT JOIN tiers t ON t.brand_id = m.brand_id AND t.id = m.plan AND t.product_id = p.id
     WHERE i.brand_id = $1 AND i.id = $3 AND m.mode = $2 AND m.status = 'active' AND m.receive_emails = true
       AND (t.id IS NULL OR cardinality(t.item_ids) = 0 OR i.id = ANY (t.item_ids))
     ORDER BY lower(m.email), m.created_at`,
    [brandId, mode, itemId],
  );
}

/** The hub or product and tier a membership is for, in words. */
export async function membershipItem(db: Queryable, m: Pick<MembershipRow, 'brand_id' | 'hub_id' | 'product_id' | 'plan'>): Promise<string> {
  const [row] = await db.query<{ what: string | null; tier: string | null }>(
    `SELECT coalesce((SELECT name FROM hubs WHERE brand_id = $1 AND id = $2), (SELECT title FROM products WHERE brand_id = $1 AND id = $3)) AS what,
       (SELECT name FROM tiers WHERE brand_id = $1 AND id = $4) AS tier`,
    [m.brand_id, m.hub_id, m.product_id, m.plan],
  );
  const what = row?.what ?? 'Your membership';
  return row?.tier ? `${what} (${row.tier})` : what;
}
