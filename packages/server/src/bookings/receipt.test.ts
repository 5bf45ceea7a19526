import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { bookBody, createCall } from '../testing/bookings.ts';

/** The receipt of a booking, as a real SMTP server receives it: the session in the buyer's zone and a calendar file that parses back. */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ worker: true, mail: { smtpUrl: smtp.url, from: 'hello@shop.test', retryScheduleMs: [100] } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

async function waitForMail(to: string) {
  const started = Date.now();
  for (;;) {
    const found = smtp.received.find((m) => m.envelope.to.includes(to));
    if (found) return found;
    if (Date.now() - started > 15_000) throw new Error(`no mail for ${to}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the receipt of a booking', () => {
  it('says when the session is in the buyer\'s zone and carries an .ics of it', async () => {
    const shop = await createBrandWithCatalog(t.db);
    await t.request({ method: 'POST', url: '/api/v1/test-clock/advance', key: shop.testKey, payload: { to: '2027-06-06T08:00:00.000Z' } });
    const call = await createCall(t, shop.testKey);
    const link = await createLink(t, shop.testKey, bookBody(call, '2027-06-08T08:00:00.000Z', 'ics', { timezone: 'America/New_York' }));
    assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
    const [booking] = (await t.request({ method: 'GET', url: '/api/v1/bookings', key: shop.testKey })).json().data.items as { id: string }[];

    const mail = await waitForMail('buyerics@example.com');
    assert.match(mail.parsed.text ?? '', /When: +Tuesday, 8 June 2027, 04:00–04:30 \(America\/New_York\)/);
    const file = mail.parsed.attachments.find((a) => a.filename === 'booking.ics');
    assert.ok(file, 'booking.ics attached');
    assert.match(file.contentType, /^text\/calendar/);
    const calendar = new ICAL.Component(ICAL.parse(file.content.toString('utf8')));
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    assert.equal(event.startDate.toJSDate().toISOString(), '2027-06-08T08:00:00.000Z');
    assert.equal(event.endDate.toJSDate().toISOString(), '2027-06-08T08:30:00.000Z');
    assert.equal(event.uid, `${booking.id}@creator-commerce`);
    assert.match(event.summary, /1:1 coaching call/);
    assert.equal(calendar.getFirstPropertyValue('method'), 'PUBLISH');
  });
});
