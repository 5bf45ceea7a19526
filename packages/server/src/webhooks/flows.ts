import type { Db } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import * as claims from './claim.ts';
import * as repo from './repository.ts';
import { getDelivery, type WebhookDeps } from './service.ts';

/** The webhook flow that commits between steps (DESIGN.md, Who commits): claim, send, record. */

/**
 * POST /webhooks/deliveries/{id}/resend: one more attempt on the same delivery record, made now,
 * in this request, with the same event id and body, freshly signed. The record (status,
 * attempts, responseCode, attempt log) shows it. A failed resend of a delivery with retries left
 * continues its schedule; otherwise it is `failed`.
 */
export async function resendDelivery(db: Db, principal: Principal, id: string, deps: WebhookDeps) {
  const existing = await repo.findDelivery(db, principal.brandId, principal.mode, id);
  if (!existing) throw notFound('webhook delivery');
  const endpoint = await repo.findEndpoint(db, principal.brandId, principal.mode, existing.endpoint_id);
  if (!endpoint) throw new AppError('conflict', `Webhook endpoint ${existing.endpoint_id} was deleted; its deliveries cannot be resent.`);
  if (endpoint.status !== 'active') {
    throw new AppError('conflict', `Webhook endpoint ${endpoint.id} is disabled; enable it (PATCH status "active") before resending.`);
  }
  const claimed = await claims.claimOne(db, principal.brandId, principal.mode, id, existing.created_at, deps.leaseMs, deps.deliverer.claimToken());
  if (!claimed) throw new AppError('conflict', `Webhook delivery ${id} is being sent right now; try again in a moment.`);
  await deps.deliverer.deliver(claimed);
  return getDelivery(db, principal, id);
}
