import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { buildApp } from '../app.ts';
import { courseBody, createLink } from '../testing/checkout-fixtures.ts';
import { openPostgres } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { startTestApp, testDeps, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

/**
 * Invoices: a per-brand, per-mode number for every succeeded payment, with no gap and no
 * duplicate (also under concurrent payments through two API instances with their own database
 * pools, on PostgreSQL), served as a PDF and a printable page.
 */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

type Brand = Awaited<ReturnType<typeof createBrandWithCatalog>>;

function pay(app: App, path: string, card = '4242 4242 4242 4242') {
  return app.inject({
    method: 'POST', url: `${path}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ card }).toString(),
  });
}

async function buy(b: Brand, key = b.testKey, email = 'ada@example.com', card?: string) {
  const link = await createLink(t, key, courseBody(b.ids, { form: { formData: { fullName: 'Ada Lovelace', email, experienceLevel: 'Beginner' } } }));
  const res = await pay(t.app, link.path, card);
  assert.equal(res.statusCode, 303, res.body);
  const [tx] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [b.brand.id, link.id]);
  return tx.txref;
}

async function numbers(brandId: string, mode = 'test') {
  const rows = await t.db.query<{ number: number }>('SELECT number FROM invoices WHERE brand_id = $1 AND mode = $2 ORDER BY number', [brandId, mode]);
  return rows.map((r) => Number(r.number));
}

/** The PDF's streams, inflated where they are deflated: where its drawing operators are. */
function contentStreams(file: Buffer): string[] {
  const text = file.toString('latin1');
  return [...text.matchAll(/stream\r?\n/g)].flatMap((m) => {
    const start = m.index + m[0].length;
    const body = file.subarray(start, text.indexOf('endstream', start));
    try { return [inflateSync(body).toString('latin1')]; } catch { return [body.toString('latin1')]; }
  });
}

describe('invoices', () => {
  it('numbers each brand\'s succeeded payments 1, 2, 3 in each mode, and none for a declined one', async () => {
    const a = await createBrandWithCatalog(t.db);
    const b = await createBrandWithCatalog(t.db);
    await buy(a);
    await buy(b);
    await buy(a);
    await buy(a, a.testKey, 'declined@example.com', '4000 0000 0000 0002').catch(() => undefined);
    await buy(a);
    assert.deepEqual(await numbers(a.brand.id), [1, 2, 3]);
    assert.deepEqual(await numbers(b.brand.id), [1]);
    assert.deepEqual(await numbers(a.brand.id, 'live'), []);
  });

  it('serves the invoice as a PDF and as a printable page with the brand, the buyer, the lines and the total', async () => {
    const b = await createBrandWithCatalog(t.db);
    await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: b.testKey, payload: { replyTo: 'billing@brush.test' } });
    const txref = await buy(b, b.testKey, 'grace@example.com');
    const res = await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}/invoice`, key: b.testKey });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(String(res.headers['content-disposition']), /invoice-TEST-INV-0001\.pdf/);
    const pdf = await PDFDocument.load(res.rawPayload);
    assert.equal(pdf.getTitle(), 'Invoice TEST-INV-0001');
    assert.equal(pdf.getAuthor(), 'Test brand');
    assert.equal(pdf.getPageCount(), 1);

    const page = await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}/invoice?format=html`, key: b.testKey });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    for (const text of ['Invoice TEST-INV-0001', 'Test brand', 'billing@brush.test', 'Ada Lovelace', 'grace@example.com', txref, '$39.50', 'Test mode']) {
      assert.ok(page.body.includes(text), `the page shows ${text}`);
    }
  });

  it('prints the brand profile\'s display name, postal address and tax number as the seller, on the page and in the PDF', async () => {
    const b = await createBrandWithCatalog(t.db);
    const patched = await t.request({ method: 'PATCH', url: '/api/v1/brand', key: b.testKey, payload: {
      displayName: 'Ink Studio', postalAddress: '  Rua Augusta 100\r\n\r\n1100-053 Lisboa \nPortugal', taxNumber: ' PT123456789 ',
    } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.postalAddress, 'Rua Augusta 100\n1100-053 Lisboa\nPortugal', 'blank lines and stray spaces go');
    assert.equal(patched.json().data.taxNumber, 'PT123456789');
    const txref = await buy(b);

    const page = await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}/invoice?format=html`, key: b.testKey });
    assert.match(page.body, /<strong>From<\/strong><br>Ink Studio<br>Rua Augusta 100<br>1100-053 Lisboa<br>Portugal<br>Tax ID PT123456789<\/div>/);
    const pdf = await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}/invoice`, key: b.testKey });
    // pdf-lib writes the standard fonts' text as hex strings in the page's (deflated) content stream.
    const drawn = contentStreams(pdf.rawPayload).flatMap((ops) => [...ops.matchAll(/<([0-9A-F]+)> Tj/g)].map((m) => Buffer.from(m[1], 'hex').toString('latin1')));
    for (const line of ['Ink Studio', 'Rua Augusta 100', '1100-053 Lisboa', 'Portugal', 'Tax ID PT123456789', 'Ada Lovelace']) {
      assert.ok(drawn.includes(line), `the PDF draws "${line}" (drew: ${drawn.join(' | ')})`);
    }

    const cleared = await t.request({ method: 'PATCH', url: '/api/v1/brand', key: b.testKey, payload: { postalAddress: null, taxNumber: null } });
    assert.equal(cleared.json().data.postalAddress, undefined);
    const blank = await t.request({ method: 'PATCH', url: '/api/v1/brand', key: b.testKey, payload: { postalAddress: ' \n ', taxNumber: '  ' } });
    assert.equal(blank.statusCode, 400);
    assert.deepEqual(blank.json().data.details.map((e: { field: string }) => e.field).sort(), ['postalAddress', 'taxNumber']);
  });

  it('answers 404 for a transaction that did not succeed, another brand\'s, and the other mode\'s', async () => {
    const b = await createBrandWithCatalog(t.db);
    const other = await createBrandWithCatalog(t.db);
    const txref = await buy(b);
    const link = await createLink(t, b.testKey, courseBody(b.ids));
    const [pending] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND status <> \'succeeded\'', [b.brand.id]);
    for (const [key, ref] of [[other.testKey, txref], [b.liveKey, txref], ...(pending ? [[b.testKey, pending.txref]] : [])]) {
      const res = await t.request({ method: 'GET', url: `/api/v1/transactions/${ref}/invoice`, key });
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json().data.code, 'not_found');
    }
    assert.ok(link.id);
  });

  it('gives concurrent payments contiguous, unique numbers, through two API instances with their own pools', async () => {
    const b = await createBrandWithCatalog(t.db);
    // On PostgreSQL a second app on its own pool stands for a second API process; PGlite is one process.
    const second = t.url ? openPostgres(t.url, { searchPath: t.searchPath }) : undefined;
    const otherApp = second ? await buildApp(testDeps(second)) : undefined;
    try {
      const count = 24;
      const links = [];
      for (let i = 0; i < count; i++) {
        links.push(await createLink(t, b.testKey, courseBody(b.ids, { form: { formData: { fullName: `Buyer ${i}`, email: `buyer${i}@example.com`, experienceLevel: 'Beginner' } } })));
      }
      const answers = await Promise.all(links.map((l, i) => pay(otherApp && i % 2 ? otherApp : t.app, l.path)));
      assert.deepEqual(answers.map((r) => r.statusCode), answers.map(() => 303));
      assert.deepEqual(await numbers(b.brand.id), Array.from({ length: count }, (_, i) => i + 1));
      const [{ n }] = await t.db.query<{ n: number }>('SELECT count(DISTINCT txref)::int AS n FROM invoices WHERE brand_id = $1', [b.brand.id]);
      assert.equal(n, count, 'one invoice per payment');
    } finally {
      await otherApp?.close();
      await second?.close();
    }
  });
});

runCommonRouteTests('GET /transactions/{id}/invoice', {
  method: 'GET', scope: 'transactions:read', foreign: 404, modeScoped: true, document: true,
  async setup({ t: app, brandId, mode }) {
    const { createTransaction } = await import('../testing/factories.ts');
    const { assignInvoiceNumber } = await import('./repository.ts');
    const row = await createTransaction(app.db, { brandId, mode });
    await assignInvoiceNumber(app.db, { brandId, mode, transactionId: row.id, txref: row.txref });
    return { url: `/api/v1/transactions/${row.txref}/invoice?format=html`, marker: row.txref };
  },
}, () => t);
