import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { recordEvent } from '../events/service.ts';
import { renderTransaction } from '../transactions/service.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog, createTransaction } from '../testing/factories.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * The mail path end to end against a real SMTP server (smtp-server on a free port): what the
 * server receives, retries while it is down, refusals, and no mail for a change that rolled back.
 */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ worker: true, mail: { smtpUrl: smtp.url, from: 'receipts@shop.test', retryScheduleMs: [150, 300, 600], leaseMs: 5000 } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const mailFor = (to: string) => smtp.received.filter((m) => m.envelope.to.includes(to));

async function waitForMail(to: string, count = 1, timeoutMs = 10_000) {
  const started = Date.now();
  while (mailFor(to).length < count) {
    if (Date.now() - started > timeoutMs) throw new Error(`no mail for ${to} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return mailFor(to);
}

async function messagesOf(brandId: string, to: string) {
  return t.db.query<{ id: string; kind: string; status: string; attempts: number; status_detail: string | null }>(
    'SELECT id, kind, status, attempts, status_detail FROM mail_messages WHERE brand_id = $1 AND to_address = $2 ORDER BY created_at',
    [brandId, to],
  );
}

async function waitForStatus(brandId: string, to: string, status: string, timeoutMs = 10_000) {
  const started = Date.now();
  for (;;) {
    const [m] = await messagesOf(brandId, to);
    if (m?.status === status) return m;
    if (Date.now() - started > timeoutMs) throw new Error(`message for ${to} is ${m?.status ?? 'missing'}, not ${status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function buyCourse(email: string) {
  const b = await createBrandWithCatalog(t.db);
  const link = await createLink(t, b.testKey, courseBody(b.ids, { form: { formData: { fullName: 'Ada Lovelace', email, experienceLevel: 'Beginner' } } }));
  const paid = await submitCard(t, link.path, '4242 4242 4242 4242');
  assert.equal(paid.statusCode, 303, paid.body);
  const [tx] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND status = \'succeeded\'', [b.brand.id]);
  return { ...b, txref: tx.txref };
}

describe('mail through SMTP', () => {
  it('sends a receipt for a paid link: to the buyer, from the brand\'s name at MAIL_FROM, with the text part naming what was bought', async () => {
    const b = await buyCourse('ada.receipt@example.com');
    const [mail] = await waitForMail('ada.receipt@example.com');
    assert.deepEqual(mail.envelope.to, ['ada.receipt@example.com']);
    assert.equal(mail.envelope.from, 'receipts@shop.test');
    assert.equal(mail.parsed.subject, 'Your receipt from Test brand');
    assert.equal(mail.parsed.from?.value[0].name, 'Test brand');
    assert.equal(mail.parsed.from?.value[0].address, 'receipts@shop.test');
    const text = mail.parsed.text ?? '';
    assert.match(text, /Thank you for your purchase/);
    assert.match(text, /\$39\.50/, 'the amount paid');
    assert.match(text, new RegExp(b.txref), 'the txref');
    assert.match(text, /Brushwork fundamentals/, 'what was bought');
    assert.match(text, /TEST-INV-\d{4}/, 'the invoice number');
    assert.match(String(mail.parsed.html), /Brushwork fundamentals/);
    const m = await waitForStatus(b.brand.id, 'ada.receipt@example.com', 'sent');
    const log = await t.db.query<{ outcome: string; response: string }>('SELECT outcome, response FROM mail_attempts WHERE brand_id = $1 AND message_id = $2', [b.brand.id, m.id]);
    assert.equal(log.length, 1);
    assert.equal(log[0].outcome, 'sent');
    assert.match(log[0].response, /^250/, 'the SMTP server\'s answer is logged');
  });

  it('sends nothing for a payment whose transaction rolled back, and a receipt for the same payment committed', async () => {
    const b = await createBrandWithCatalog(t.db);
    const pay = (email: string, fail: boolean) => t.db.transaction(async (tx) => {
      const row = await createTransaction(tx, { brandId: b.brand.id, email, amount: 1200 });
      await recordEvent(tx, { brandId: b.brand.id, mode: 'test', type: 'transaction.succeeded', data: renderTransaction(row) });
      if (fail) throw new Error('the payment failed after its event was recorded');
    });
    await assert.rejects(pay('rolled.back@example.com', true), /failed after/);
    await pay('committed@example.com', false);
    await waitForMail('committed@example.com');
    assert.deepEqual(await messagesOf(b.brand.id, 'rolled.back@example.com'), [], 'no message was queued');
    assert.equal(mailFor('rolled.back@example.com').length, 0, 'and none reached the SMTP server');
    const numbers = await t.db.query<{ number: number }>('SELECT number FROM invoices WHERE brand_id = $1', [b.brand.id]);
    assert.deepEqual(numbers.map((n) => n.number), [1], 'the rolled-back payment gave its invoice number back');
  });

  it('retries while the SMTP server is down and delivers once it is back, logging the failed tries', async () => {
    await smtp.stop();
    let b: Awaited<ReturnType<typeof buyCourse>>;
    try {
      b = await buyCourse('ada.retry@example.com');
      const started = Date.now();
      for (;;) {
        const [m] = await messagesOf(b.brand.id, 'ada.retry@example.com');
        if (m && m.attempts >= 2 && m.status === 'queued') break;
        if (Date.now() - started > 10_000) throw new Error(`not retried: ${JSON.stringify(m)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await smtp.start();
    }
    const [mail] = await waitForMail('ada.retry@example.com');
    assert.match(mail.parsed.text ?? '', new RegExp(b.txref));
    const m = await waitForStatus(b.brand.id, 'ada.retry@example.com', 'sent');
    const log = await t.db.query<{ outcome: string; response: string }>('SELECT outcome, response FROM mail_attempts WHERE brand_id = $1 AND message_id = $2 ORDER BY attempt', [b.brand.id, m.id]);
    assert.ok(log.length >= 3, `two failed tries and a sent one: ${JSON.stringify(log)}`);
    assert.deepEqual(log.map((l) => l.outcome).slice(-1), ['sent']);
    assert.ok(log.slice(0, -1).every((l) => l.outcome === 'failed' && /ECONNREFUSED|connect/i.test(l.response)), JSON.stringify(log));
    assert.equal(mailFor('ada.retry@example.com').length, 1, 'delivered once');
  });

  it('marks a message the SMTP server refuses for good (550) as failed with its answer, and does not retry it', async () => {
    smtp.refuse.add('nobody@example.com');
    const b = await buyCourse('nobody@example.com');
    const m = await waitForStatus(b.brand.id, 'nobody@example.com', 'failed');
    assert.match(m.status_detail ?? '', /550/);
    await new Promise((r) => setTimeout(r, 500));
    const [again] = await messagesOf(b.brand.id, 'nobody@example.com');
    assert.equal(again.attempts, 1, 'not retried');
    const log = await t.db.query<{ outcome: string; response: string }>('SELECT outcome, response FROM mail_attempts WHERE brand_id = $1 AND message_id = $2', [b.brand.id, m.id]);
    assert.deepEqual(log.map((l) => l.outcome), ['bounced']);
    assert.match(log[0].response, /No such mailbox/);
  });
});
