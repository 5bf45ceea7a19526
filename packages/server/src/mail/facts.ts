import type { Queryable } from '../db/client.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import type { ReceiptLine } from './kinds.ts';

/**
 * What a transaction bought, in words, for receipts and invoices: the payment link's frozen line
 * items when it came from checkout, else the product or hub (and, for a renewal, the tier) it is
 * for. Also whether the buyer said yes to marketing mail on that link (`receive_emails`).
 */
export async function purchaseOf(db: Queryable, t: TransactionRow): Promise<{ item: string; lines: ReceiptLine[]; receiveEmails: boolean }> {
  // A renewal names no resource: its subscription (whose pending charge it still is when its
  // event is recorded) leads to the membership's hub or product and the tier.
  const [row] = await db.query<{ line_items: { description: string; amount: number }[] | null; receive: string | null; resource: string | null; tier: string | null }>(
    `WITH s AS (
       SELECT s.tier_id, m.hub_id, m.product_id FROM subscriptions s
       JOIN memberships m ON m.brand_id = s.brand_id AND m.id = s.membership_id
       WHERE s.brand_id = $1 AND s.pending_transaction_id = $3 LIMIT 1
     )
     SELECT l.line_items, l.extras->>'receive_emails' AS receive,
       coalesce((SELECT title FROM products WHERE brand_id = $1 AND id = $2), (SELECT name FROM hubs WHERE brand_id = $1 AND id = $2),
         (SELECT h.name FROM hubs h, s WHERE h.brand_id = $1 AND h.id = s.hub_id), (SELECT p.title FROM products p, s WHERE p.brand_id = $1 AND p.id = s.product_id)) AS resource,
       (SELECT ti.name FROM tiers ti, s WHERE ti.brand_id = $1 AND ti.id = s.tier_id) AS tier
     FROM (SELECT 1) one LEFT JOIN payment_links l ON l.brand_id = $1 AND l.id = $4`,
    [t.brand_id, t.resource_id, t.id, t.payment_link_id],
  );
  const lines = (row?.line_items ?? []).map((l) => ({ description: l.description, amount: Number(l.amount) }));
  const base = row?.resource ?? 'Your purchase';
  const item = lines.length === 1 ? lines[0].description : row?.tier ? `${base} (${row.tier})` : base;
  return { item, lines, receiveEmails: row?.receive === 'true' };
}
