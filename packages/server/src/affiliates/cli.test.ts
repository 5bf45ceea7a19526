import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCommand } from '../cli/commands.ts';
import { parseCommand } from '../cli/parse.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { runCli } from '../testing/processes.ts';
import { migratedCliStore } from '../testing/cli-store.ts';

/** `npm run cli -- affiliate …` as an operator runs it: a real process on its own database. */
let env: Record<string, string>;
let cleanup: () => Promise<void>;
before(async () => {
  ({ env, cleanup } = await migratedCliStore('cli-affiliates'));
});
after(async () => { await cleanup(); });

describe('affiliate commands of the admin CLI', () => {
  it('creates, lists, shows, updates and archives an affiliate, and refuses bad input naming the field', async () => {
    const brand = await runCli(['brand', 'create', '--name', 'Studio'], env);
    assert.equal(brand.code, 0, brand.stderr);
    const brandId = brand.json().id as string;
    const at = ['--brand', brandId, '--mode', 'test'];

    const made = await runCli(['affiliate', 'create', ...at, '--name', 'Rita Inks', '--email', 'rita@example.com', '--code', 'RITA10', '--percent', '20', '--recurring'], env);
    assert.equal(made.code, 0, made.stderr);
    const rita = made.json();
    assert.deepEqual([rita.name, rita.code, rita.commissionPercent, rita.recurring, rita.status, rita.mode, rita.stats], ['Rita Inks', 'RITA10', 20, true, 'active', 'test', []]);

    const taken = await runCli(['affiliate', 'create', ...at, '--name', 'Copy', '--email', 'c@example.com', '--code', 'rita10', '--percent', '5'], env);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /code.*another active affiliate/);
    const badCode = await runCli(['affiliate', 'create', ...at, '--name', 'X', '--email', 'x@example.com', '--code', 'NO SPACES', '--percent', '5'], env);
    assert.equal(badCode.code, 1);
    assert.match(badCode.stderr, /`code`: may hold only letters, digits, - and _/);
    const badPercent = await runCli(['affiliate', 'create', ...at, '--name', 'X', '--email', 'x@example.com', '--code', 'XX', '--percent', 'lots'], env);
    assert.equal(badPercent.code, 1, badPercent.stderr);
    assert.match(badPercent.stderr, /--percent must be a number/);
    const unknownProduct = await runCli(['affiliate', 'create', ...at, '--name', 'X', '--email', 'x@example.com', '--code', 'XX', '--percent', '5', '--product', 'prod_nope=30'], env);
    assert.equal(unknownProduct.code, 1);
    assert.match(unknownProduct.stderr, /productCommissions\[0\]\.productID.*no product or hub/);

    const shown = await runCli(['affiliate', 'show', rita.id, ...at], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.json().id, rita.id);
    const otherMode = await runCli(['affiliate', 'show', rita.id, '--brand', brandId, '--mode', 'live'], env);
    assert.equal(otherMode.code, 1, 'a test affiliate is not found in live mode');

    const changed = await runCli(['affiliate', 'update', rita.id, ...at, '--percent', '25', '--no-recurring', '--code', 'RITA25'], env);
    assert.equal(changed.code, 0, changed.stderr);
    assert.deepEqual([changed.json().commissionPercent, changed.json().recurring, changed.json().code], [25, false, 'RITA25']);
    const nothing = await runCli(['affiliate', 'update', rita.id, ...at], env);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /needs something to change/);

    const archived = await runCli(['affiliate', 'archive', rita.id, ...at], env);
    assert.equal(archived.code, 0, archived.stderr);
    assert.equal(archived.json().status, 'archived');
    const active = await runCli(['affiliate', 'list', ...at, '--status', 'active'], env);
    assert.deepEqual(active.json().items, []);
    const all = await runCli(['affiliate', 'list', ...at], env);
    assert.deepEqual(all.json().items.map((a: { code: string; status: string }) => [a.code, a.status]), [['RITA25', 'archived']]);
    const restored = await runCli(['affiliate', 'update', rita.id, ...at, '--status', 'active'], env);
    assert.equal(restored.json().status, 'active');
  });
});

describe('affiliate show', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); });

  it('shows the attributed sales and the commission pending, as GET /affiliates/{id} does', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const created = await runCommand(t.db, undefined, await parseCommand(['affiliate', 'create', '--brand', shop.brand.id, '--mode', 'test', '--name', 'Rita', '--email', 'rita@example.com', '--code', 'RITA', '--percent', '10']), t.config) as { id: string };
    const body = courseBody(shop.ids);
    const link = await createLink(t, shop.testKey, { ...body, items: body.items.map((i: object) => ({ ...i, affiliate: 'rita' })) });
    assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);

    const shown = await runCommand(t.db, undefined, await parseCommand(['affiliate', 'show', created.id, '--brand', shop.brand.id, '--mode', 'test']), t.config) as { stats: { currency: string; sales: number; salesAmount: number; pending: number; earned: number }[] };
    assert.equal(shown.stats.length, 1);
    const [usd] = shown.stats;
    assert.deepEqual([usd.currency, usd.sales, usd.salesAmount, usd.earned], ['USD', 1, 39.5, 0]);
    assert.ok(usd.pending > 0 && usd.pending < 3.95, `10% of the net, held: ${usd.pending}`);
    const api = await t.request({ method: 'GET', url: `/api/v1/affiliates/${created.id}`, key: shop.testKey });
    assert.deepEqual(JSON.parse(JSON.stringify(shown)).stats, api.json().data.stats);
  });
});
