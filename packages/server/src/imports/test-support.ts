import type { Db } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import type { Principal } from '../auth/principal.ts';
import { queueHubImport } from './service.ts';
import { processNextBatch, type ImportWorkOptions } from './jobs.ts';

/** Shared by the imports test files: small catalogs and a way to run the worker to the end. */

export const hubWithFreeTier = {
  hubs: [{ ref: 'h', name: 'Hub', tiers: [
    { ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } },
    { ref: 'pro', name: 'Pro', price: { amount: 9, currency: 'USD' }, isDefault: true },
  ] }],
};

export const hubWithoutFreeTier = {
  hubs: [{ ref: 'h', name: 'Paid hub', tiers: [{ ref: 'paid', name: 'Paid', price: { amount: 5, currency: 'USD' } }] }],
};

/** A product asking one checkout field of every type. */
export const productWithEveryField = {
  products: [{
    ref: 'p', type: 'event', title: 'Workshop',
    event: { eventType: 'online', venue: 'Online', dateTime: '2027-01-01T10:00:00.000Z' },
    tiers: [
      { ref: 'seat', name: 'Seat', price: { amount: 10, currency: 'USD' } },
      { ref: 'vip', name: 'VIP', price: { amount: 50, currency: 'USD' }, isDefault: true },
    ],
    checkoutFields: [
      { label: 'Company name', type: 'text' },
      { label: 'Work email', type: 'email' },
      { label: 'Mobile', type: 'phone' },
      { label: 'Seats wanted', type: 'number' },
      { label: 'Experience level', type: 'select', required: true, options: ['Beginner', 'Advanced'] },
      { label: 'Newsletter', type: 'checkbox' },
      { label: 'Birthday', type: 'date' },
    ],
  }],
};

export const principal = (brandId: string, mode: Mode = 'test'): Principal =>
  ({ brandId, mode, scopes: ['customers:write'], via: 'api_key', keyId: 'key_test' });

export const people = (n: number, prefix = 'person', from = 0) =>
  Array.from({ length: n }, (_, i) => ({ fullName: `Person ${from + i}`, email: `${prefix}${from + i}@example.com` }));

/** Queues a hub import straight through the service (for setups that need an import to exist). */
export function queueForTest(db: Db, brandId: string, mode: Mode, hubId: string, records = people(2)) {
  return db.transaction((tx) => queueHubImport(tx, principal(brandId, mode), hubId, { records }, 1000));
}

/** Runs batches until no import has work left; returns how many batches ran. */
export async function drainImports(db: Db, options: Partial<ImportWorkOptions> = {}): Promise<number> {
  let batches = 0;
  while (await processNextBatch(db, { batchSize: 1000, ...options })) batches++;
  return batches;
}
