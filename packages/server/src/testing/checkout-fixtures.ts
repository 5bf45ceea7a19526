import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

/** Shared by the checkout tests: a valid body for the example catalog, and paying a link through the hosted page. */

export type Ids = Record<string, string>;

/** Buys "Brushwork fundamentals" on its Standard tier (49.50 less 10.00 off: 39.50 USD). */
export function courseBody(ids: Ids, overrides: Record<string, unknown> = {}) {
  return {
    items: [{ id: ids['brush-course'], plan: ids['brush-standard'], type: 'course' }],
    form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', experienceLevel: 'Beginner' } },
    ...overrides,
  };
}

export async function createLink(t: TestApp, key: string, body: unknown) {
  const res = await t.request({ method: 'POST', url: '/api/v1/payment-links', key, payload: body as object });
  assert.equal(res.statusCode, 200, res.body);
  const data = res.json().data as { link: string; id: string; amount: number; currency: string };
  return { ...data, path: new URL(data.link).pathname };
}

/** Submits the hosted page's form, as a browser without JavaScript would. */
export function submitCard(t: TestApp, path: string, card?: string) {
  return t.app.inject({
    method: 'POST',
    url: `${path}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: card === undefined ? '' : new URLSearchParams({ card }).toString(),
  });
}

export const cards = {
  ok: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficient: '4000 0000 0000 9995',
  /** Succeeds, then the buyer disputes the payment (docs/refunds.md, Disputes). */
  disputed: '4000 0000 0000 0259',
};

export async function eventsOf(t: TestApp, brandId: string, type?: string) {
  return t.db.query<{ id: string; type: string; mode: string; data: any }>(
    `SELECT id, type, mode, data FROM events WHERE brand_id = $1 ${type ? 'AND type = $2' : ''} ORDER BY created_at, id`,
    type ? [brandId, type] : [brandId],
  );
}
