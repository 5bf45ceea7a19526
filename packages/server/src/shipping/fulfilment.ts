import type { Principal } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { recordEvent } from '../events/service.ts';
import { urlShapeProblem } from '../security/url-guard.ts';
import * as transactions from '../transactions/repository.ts';
import type { FulfilmentDetails } from '../transactions/repository.ts';
import { renderTransaction, type FeeSettings } from '../transactions/service.ts';
import type { Transaction } from '../transactions/schemas.ts';
import type { FulfilmentBody, FulfilmentStatus } from './schemas.ts';

/**
 * POST /transactions/{id}/fulfilment (docs/shipping.md): moves a paid physical order one step,
 * unfulfilled -> shipped for a delivery, unfulfilled -> ready_for_pickup -> picked_up for a
 * pickup, and tells the buyer (order.shipped / order.ready_for_pickup, and the mail those cause).
 * Any other step is a 409 that says what the order is waiting for.
 */

/** Where each status may be reached from, and which way of getting the order to the buyer it belongs to. */
const steps: Record<FulfilmentBody['status'], { from: FulfilmentStatus; method: 'delivery' | 'pickup' }> = {
  shipped: { from: 'unfulfilled', method: 'delivery' },
  ready_for_pickup: { from: 'unfulfilled', method: 'pickup' },
  picked_up: { from: 'ready_for_pickup', method: 'pickup' },
};

const next: Record<'delivery' | 'pickup', Partial<Record<FulfilmentStatus, string>>> = {
  delivery: { unfulfilled: 'mark it shipped', shipped: 'it is shipped, the last step of a delivery' },
  pickup: { unfulfilled: 'mark it ready_for_pickup', ready_for_pickup: 'mark it picked_up', picked_up: 'it is picked up, the last step of a pickup' },
};

export async function setFulfilment(tx: Queryable, principal: Principal, txref: string, body: FulfilmentBody, fees?: FeeSettings): Promise<Transaction> {
  checkBody(body);
  const row = await transactions.findByTxref(tx, principal.brandId, principal.mode, txref, { forUpdate: true });
  if (!row) throw notFound('transaction');
  const current = row.fulfilment_status;
  const method = row.shipping?.method;
  if (!current || !method) {
    throw new AppError('conflict', `Transaction ${txref} is not an order of a physical product with shipping settings: it has nothing to ship or hand over.`);
  }
  if (row.status !== 'succeeded') {
    throw new AppError('conflict', `Transaction ${txref} is ${row.status}: only a paid order (status succeeded) is shipped or handed over.`);
  }
  const step = steps[body.status];
  if (step.method !== method) {
    throw new AppError('conflict', method === 'pickup'
      ? `Order ${txref} is collected at a pickup point, not delivered: ${next.pickup[current] ?? 'it cannot move'} instead of ${body.status}.`
      : `Order ${txref} is delivered to an address, not collected: ${next.delivery[current] ?? 'it cannot move'} instead of ${body.status}.`);
  }
  if (current !== step.from) {
    throw new AppError('conflict', `Order ${txref} is ${current}, so it cannot become ${body.status}: ${next[method][current] ?? 'it cannot move'}.`);
  }
  const at = (await modeNow(tx, row.brand_id, row.mode)).toISOString();
  const details: FulfilmentDetails = body.status === 'shipped'
    ? { carrier: body.carrier!.trim(), trackingNumber: body.trackingNumber!.trim(), ...(body.trackingUrl ? { trackingUrl: body.trackingUrl } : {}), shippedAt: at }
    : body.status === 'ready_for_pickup' ? { readyForPickupAt: at } : { pickedUpAt: at };
  const moved = await transactions.moveFulfilment(tx, row.brand_id, row.id, current, body.status, details);
  if (!moved) throw new AppError('conflict', `Order ${txref} changed while this was asked; get it again and retry.`);
  const shown = renderTransaction(moved, fees);
  if (body.status !== 'picked_up') {
    await recordEvent(tx, {
      brandId: moved.brand_id, mode: moved.mode, type: body.status === 'shipped' ? 'order.shipped' : 'order.ready_for_pickup',
      data: renderTransaction(moved), appId: moved.app_id ?? null,
    });
  }
  return shown;
}

/** The body's own rules: carrier and tracking number with `shipped` and only with it. */
function checkBody(body: FulfilmentBody): void {
  const problems: ErrorDetail[] = [];
  if (body.status === 'shipped') {
    if (!body.carrier?.trim()) problems.push({ field: 'carrier', message: 'is required with status shipped (e.g. USPS, Royal Mail, DHL)' });
    if (!body.trackingNumber?.trim()) problems.push({ field: 'trackingNumber', message: 'is required with status shipped' });
    const problem = body.trackingUrl === undefined ? undefined : urlShapeProblem(body.trackingUrl) ?? (/^https?:\/\//i.test(body.trackingUrl) ? undefined : 'must be an http:// or https:// address');
    if (problem) problems.push({ field: 'trackingUrl', message: problem });
  } else {
    for (const field of ['carrier', 'trackingNumber', 'trackingUrl'] as const) {
      if (body[field] !== undefined) problems.push({ field, message: `is only for status shipped, not ${body.status}` });
    }
  }
  if (problems.length) throw invalidAll(problems);
}
