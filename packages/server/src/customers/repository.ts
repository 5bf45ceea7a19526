import type { Queryable } from '../db/client.ts';
import type { PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { customerIdSql } from '../ids.ts';

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

/** The customer ids of emails of a brand's mode (GET /customers/{id}), computed as the list computes them. */
export async function customerIdsOf(db: Queryable, brandId: string, mode: Mode, emails: string[]): Promise<Map<string, string>> {
  if (!emails.length) return new Map();
  const rows = await db.query<{ email: string; id: string }>(
    `SELECT e AS email, ${customerIdSql('$1', '$2', 'e')} AS id FROM unnest($3::text[]) AS e`, [brandId, mode, emails]);
  return new Map(rows.map((r) => [r.email, r.id]));
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
 * One page of customers, newest first by first seen. No table keeps them, so it is done in two
 * steps in one statement: `page` groups the mode's memberships and paid transactions by email
 * with nothing but first seen and the id (the filters are semi-joins on the owners' rows), takes
 * the page; then only the page's people are read in full, through the (brand, mode, lower(email))
 * indexes of migration 034. docs/customers.md has the numbers measured.
 */
export function listCustomers(db: Queryable, brandId: string, mode: Mode, filter: CustomerFilter, page: PageRequest) {
  const params: unknown[] = [brandId, mode, page.limit + 1];
  const param = (value: unknown) => { params.push(value); return `$${params.length}`; };
  const person = filter.person === undefined ? undefined : param(filter.person);
  const onePerson = (column: string) => (person ? `AND lower(${column}) = ${person}` : '');
  const where: string[] = [];
  const q = filter.q === undefined ? undefined : param(filter.q);
  // strpos rather than LIKE, so % and _ in what was typed are plain characters; any name they gave counts.
  if (q) where.push(`(strpos(k.person, lower(${q})) > 0 OR k.names_match)`);
  const membersOf = (condition: string) => `k.person IN (SELECT lower(email) FROM memberships WHERE brand_id = $1 AND mode = $2 AND ${condition})`;
  if (filter.product !== undefined) where.push(membersOf(`product_id = ${param(filter.product)}`));
  if (filter.hub !== undefined) where.push(membersOf(`hub_id = ${param(filter.hub)}`));
  if (filter.status !== undefined) {
    const active = `(${membersOf('status = \'active\'')} OR k.person IN (SELECT lower(customer_email) FROM subscriptions
      WHERE brand_id = $1 AND mode = $2 AND status IN ('active', 'past_due')))`;
    where.push(filter.status === 'active' ? active : `NOT ${active}`);
  }
  if (filter.consent !== undefined) where.push(`${filter.consent ? '' : 'NOT '}${membersOf('receive_emails')}`);
  if (page.after) where.push(`(k.created_at, k.id) < (${param(page.after.createdAt)}, ${param(page.after.id)})`);
  const namesMatch = q ? `bool_or(strpos(lower(name), lower(${q})) > 0)` : 'false';
  const paid = 'status IN (\'succeeded\', \'refunded\')';
  const ofPage = (column: string) => `lower(${column}) = ANY (ARRAY(SELECT person FROM page))`;
  return db.query<CustomerRow>(
    `WITH seen AS (
       SELECT lower(email) AS person, name, created_at FROM memberships WHERE brand_id = $1 AND mode = $2 ${onePerson('email')}
       UNION ALL
       SELECT lower(customer_email), customer_name, created_at FROM transactions WHERE brand_id = $1 AND mode = $2 AND ${paid} ${onePerson('customer_email')}
     ),
     keys AS (
       SELECT person, min(created_at) AS created_at, ${customerIdSql('$1::text', '$2::text', 'person')} AS id, ${namesMatch} AS names_match
       FROM seen GROUP BY person
     ),
     page AS (
       SELECT k.person, k.created_at, k.id FROM keys k
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY k.created_at DESC, k.id DESC
       LIMIT $3
     ),
     person_rows AS (
       SELECT lower(email) AS person, name, email, created_at AS seen_at, updated_at AS active_at, 1 AS membership,
         (status = 'active')::int AS active_membership, 0 AS purchase, receive_emails, product_id, hub_id
       FROM memberships WHERE brand_id = $1 AND mode = $2 AND ${ofPage('email')}
       UNION ALL
       SELECT lower(customer_email), customer_name, customer_email, created_at, created_at, 0, 0, (type = 'purchase')::int, NULL, NULL, NULL
       FROM transactions WHERE brand_id = $1 AND mode = $2 AND ${paid} AND ${ofPage('customer_email')}
     ),
     people AS (
       SELECT person,
         (array_agg(name ORDER BY seen_at DESC))[1] AS name,
         (array_agg(email ORDER BY seen_at DESC))[1] AS email,
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
       WHERE brand_id = $1 AND mode = $2 AND status IN ('active', 'past_due') AND ${ofPage('customer_email')}
       GROUP BY lower(customer_email)
     ),
     value AS (
       SELECT person, jsonb_agg(jsonb_build_object('currency', currency, 'paid', paid, 'refunded', refunded) ORDER BY currency) AS lifetime_value
       FROM (
         SELECT lower(customer_email) AS person, currency, sum(amount)::bigint AS paid, sum(refunded_amount)::bigint AS refunded
         FROM transactions WHERE brand_id = $1 AND mode = $2 AND ${paid} AND amount > 0 AND ${ofPage('customer_email')}
         GROUP BY lower(customer_email), currency
       ) per_currency
       GROUP BY person
     )
     SELECT pg.id, pg.created_at, p.*, coalesce(r.active_subscriptions, 0) AS active_subscriptions,
       coalesce(v.lifetime_value, '[]'::jsonb) AS lifetime_value
     FROM page pg JOIN people p USING (person) LEFT JOIN running r USING (person) LEFT JOIN value v USING (person)
     ORDER BY pg.created_at DESC, pg.id DESC`,
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
