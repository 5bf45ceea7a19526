import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxProvider } from '../payments/sandbox.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { beginPayment } from './flows.ts';
import { reconcileSource } from './jobs.ts';
import { cards, courseBody, createLink, eventsOf } from '../testing/checkout-fixtures.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

/** A sandbox payment charged whose settling was lost (the database went away in between), made `minutes` ago. */
async function chargedNotSettled(card: string, minutes: number) {
  const shop = await createBrandWithCatalog(t.db);
  const link = await createLink(t, shop.testKey, courseBody(shop.ids));
  const { payment } = await t.db.transaction((tx) => beginPayment(tx, t.deps.payments, shop.brand.id, link.id));
  await sandboxProvider.confirmPayment(t.db, { brandId: shop.brand.id, reference: payment.provider_reference!, details: { card } });
  await t.db.query(`UPDATE transactions SET created_at = now() - make_interval(mins => $2) WHERE id = $1`, [payment.id, minutes]);
  return { ...shop, payment };
}

const statusOf = async (id: string) => (await t.db.query<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))[0].status;

describe('the worker reconciles pending payments with their provider', () => {
  it('settles a charged payment pending for more than 5 minutes, with its events, and leaves a recent one to its buyer', async () => {
    const stale = await chargedNotSettled(cards.ok, 10);
    const declined = await chargedNotSettled(cards.declined, 10);
    const recent = await chargedNotSettled(cards.ok, 1);
    const source = reconcileSource({ db: t.db, log: t.deps.log, payments: t.deps.payments, batch: 10_000 });
    await source.runOnce();
    assert.equal(await statusOf(stale.payment.id), 'succeeded');
    assert.deepEqual((await eventsOf(t, stale.brand.id)).map((e) => e.type), ['transaction.succeeded', 'member.joined']);
    assert.equal(await statusOf(declined.payment.id), 'failed');
    assert.deepEqual((await eventsOf(t, declined.brand.id)).map((e) => e.type), ['transaction.failed']);
    assert.equal(await statusOf(recent.payment.id), 'pending', 'a payment in progress is its buyer\'s');
    assert.equal((await eventsOf(t, recent.brand.id)).length, 0);

    // Runs again only after its interval, and settling twice records nothing twice.
    await t.db.query(`UPDATE transactions SET created_at = now() - interval '10 minutes' WHERE id = $1`, [recent.payment.id]);
    await source.runOnce();
    assert.equal(await statusOf(recent.payment.id), 'pending', 'not before the next round');
    const next = reconcileSource({ db: t.db, log: t.deps.log, payments: t.deps.payments, batch: 10_000 });
    await next.runOnce();
    assert.equal(await statusOf(recent.payment.id), 'succeeded');
    assert.equal((await eventsOf(t, stale.brand.id)).length, 2);
  });
});
