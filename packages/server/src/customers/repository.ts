import type { Queryable } from '../db/client.ts';
import type { PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { customerIdSql } from './id.ts';

/**
 * Customers are read, never written: this file only reads memberships, transactions and
 * subscriptions, whose own repositories write them. A customer is one lower-cased email of a
 * brand's mode that holds a membership or made a paid (succeeded, or refunded since) transaction.
 */
export interface CustomerRow {
  id: string;
  person: string;
  name: string;
  email: string;
  /** First seen: the paging key, as every list's created_at is. */
  created_at: Date;
  last_activity_at: Date;
  memberships: number;
  active_memberships: number;
  purchases: number;
  active_subscriptions: number;
  receive_emails: boolean | null;
  product_ids: string[];
  hub_ids: string[];
  /** Minor units per currency, sorted by currency. */
  lifetime_value: { currency: string; paid: number | string; refunded: number | string }[];
}

export interface CustomerFilter {
  q?: string;
  product?: string;
  hub?: string;
  status?: 'active' | 'ended';
  consent?: boolean;
  /** One person (a lower-cased email): GET /customers/{id}. */
  person?: string;
}

/**
 * One page of customers, newest first by first seen. Every person of the mode is grouped on each
 * call (no table keeps them), so the cost grows with the brand's memberships and payments; the
 * (brand, mode, lower(email)) indexes of migration 034 keep the grouping a sorted index walk.
 */
export function listCustomers(db: Queryable, brandId: string, mode: Mode, filter: CustomerFilter, page: PageRequest) {
  const params: unknown[] = [brandId, mode, page.limit + 1];
  const param = (value: unknown) => { params.push(value); return `$${params.length}`; };
  const rowsOf = filter.person === undefined ? { m: '', t: '', s: '' } : (() => {
    const p = param(filter.person);
    return { m: `AND lower(email) = ${p}`, t: `AND lower(customer_email) = ${p}`, s: `AND lower(customer_email) = ${p}` };
  })();
  const where: string[] = [];
  if (filter.q !== undefined) {
    const q = param(filter.q);
    // strpos rather than LIKE, so % and _ in what was typed are plain characters.
    where.push(`(strpos(lower(c.name), lower(${q})) > 0 OR strpos(c.person, lower(${q})) > 0)`);
  }
  if (filter.product !== undefined) where.push(`${param(filter.product)} = ANY(c.product_ids)`);
  if (filter.hub !== undefined) where.push(`${param(filter.hub)} = ANY(c.hub_ids)`);
  if (filter.status !== undefined) where.push(`${filter.status === 'ended' ? 'NOT ' : ''}(c.active_memberships > 0 OR c.active_subscriptions > 0)`);
  if (filter.consent !== undefined) where.push(`c.receive_emails IS ${filter.consent ? '' : 'NOT '}TRUE`);
  if (page.after) where.push(`(c.created_at, c.id) < (${param(page.after.createdAt)}, ${param(page.after.id)})`);
  return db.query<CustomerRow>(
    `WITH person_rows AS (
       SELECT lower(email) AS person, name, email, created_at AS seen_at, updated_at AS active_at, 1 AS membership,
         (status = 'active')::int AS active_membership, 0 AS purchase, receive_emails, product_id, hub_id
       FROM memberships WHERE brand_id = $1 AND mode = $2 ${rowsOf.m}
       UNION ALL
       SELECT lower(customer_email), customer_name, customer_email, created_at, created_at, 0, 0, (type = 'purchase')::int, NULL, NULL, NULL
       FROM transactions WHERE brand_id = $1 AND mode = $2 AND status IN ('succeeded', 'refunded') ${rowsOf.t}
     ),
     people AS (
       SELECT person,
         (array_agg(name ORDER BY seen_at DESC))[1] AS name,
         (array_agg(email ORDER BY seen_at DESC))[1] AS email,
         min(seen_at) AS created_at,
         max(active_at) AS last_activity_at,
         sum(membership)::integer AS memberships,
         sum(active_membership)::integer AS active_memberships,
         sum(purchase)::integer AS purchases,
         bool_or(receive_emails) AS receive_emails,
         coalesce(array_agg(DISTINCT product_id) FILTER (WHERE product_id IS NOT NULL), '{}') AS product_ids,
         coalesce(array_agg(DISTINCT hub_id) FILTER (WHERE hub_id IS NOT NULL), '{}') AS hub_ids
       FROM person_rows GROUP BY person
     ),
     running AS (
       SELECT lower(customer_email) AS person, count(*)::integer AS active_subscriptions FROM subscriptions
       WHERE brand_id = $1 AND mode = $2 AND status IN ('active', 'past_due') ${rowsOf.s}
       GROUP BY lower(customer_email)
     ),
     value AS (
       SELECT person, jsonb_agg(jsonb_build_object('currency', currency, 'paid', paid, 'refunded', refunded) ORDER BY currency) AS lifetime_value
       FROM (
         SELECT lower(customer_email) AS person, currency, sum(amount)::bigint AS paid, sum(refunded_amount)::bigint AS refunded
         FROM transactions WHERE brand_id = $1 AND mode = $2 AND status IN ('succeeded', 'refunded') AND amount > 0 ${rowsOf.t}
         GROUP BY lower(customer_email), currency
       ) per_currency
       GROUP BY person
     )
     SELECT * FROM (
       SELECT ${customerIdSql('$1::text', '$2::text', 'p.person')} AS id, p.*,
         coalesce(r.active_subscriptions, 0) AS active_subscriptions, coalesce(v.lifetime_value, '[]'::jsonb) AS lifetime_value
       FROM people p LEFT JOIN running r USING (person) LEFT JOIN value v USING (person)
     ) c
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY c.created_at DESC, c.id DESC
     LIMIT $3`,
    params,
  );
}

/** The lower-cased email a customer id stands for in the brand's mode, if anyone has it. */
export async function findPerson(db: Queryable, brandId: string, mode: Mode, id: string): Promise<string | undefined> {
  const [row] = await db.query<{ person: string }>(
    `SELECT lower(email) AS person FROM memberships
     WHERE brand_id = $1 AND mode = $2 AND ${customerIdSql('brand_id', 'mode', 'email')} = $3
     UNION ALL
     SELECT lower(customer_email) FROM transactions
     WHERE brand_id = $1 AND mode = $2 AND status IN ('succeeded', 'refunded') AND ${customerIdSql('brand_id', 'mode', 'customer_email')} = $3
     LIMIT 1`,
    [brandId, mode, id],
  );
  return row?.person;
}
