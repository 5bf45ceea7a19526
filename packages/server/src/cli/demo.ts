import type { Db } from '../db/client.ts';
import { newId } from '../ids.ts';
import { insertMembership } from '../memberships/repository.ts';
import { insertTransaction } from '../transactions/repository.ts';
import { newTxref } from '../transactions/lifecycle.ts';

const people = [
  { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0001' },
  { name: 'Grace Hopper', email: 'grace@example.com' },
  { name: 'Katherine Johnson', email: 'katherine@example.com' },
];

/**
 * Test-mode activity for the demo brand, so a newcomer's first requests to the members,
 * customers and transactions endpoints return something. Demo data records no events: no
 * webhook endpoint exists yet to receive them.
 */
export async function seedDemoActivity(db: Db, brandId: string, ids: Record<string, string>) {
  await db.transaction(async (tx) => {
    for (const person of people) {
      await insertMembership(tx, {
        brand_id: brandId, id: newId('mem'), mode: 'test', hub_id: ids['studio-club'], product_id: null,
        name: person.name, email: person.email, phone: person.phone ?? null, plan: ids['club-free'],
      });
    }
    for (const person of people.slice(0, 2)) {
      await insertMembership(tx, {
        brand_id: brandId, id: newId('mem'), mode: 'test', hub_id: null, product_id: ids['brush-course'],
        name: person.name, email: person.email, phone: person.phone ?? null, plan: ids['brush-standard'],
      });
      await insertTransaction(tx, {
        brand_id: brandId, id: newId('txn'), txref: newTxref(), mode: 'test', type: 'purchase',
        status: 'succeeded', amount: 3950, currency: 'USD', customer_name: person.name, customer_email: person.email,
        resource_id: ids['brush-course'], metadata: { source: 'demo' }, payment_link_id: null, provider: null, provider_reference: null,
      });
    }
  });
}
