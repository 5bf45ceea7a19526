import type { Queryable } from '../db/client.ts';
import * as memberships from '../memberships/repository.ts';
import type { MembershipRow } from '../memberships/repository.ts';
import { queueMail } from '../mail/service.ts';
import * as subscriptions from './repository.ts';
import type { SubscriptionRow } from './repository.ts';

/**
 * After a cancellation (API, dashboard or CLI): confirms to the member what changed, once. The
 * state before is compared with the state now, so cancelling what had already ended, or
 * cancelling at period end twice, mails nothing.
 */
export async function mailCancellation(tx: Queryable, before: MembershipRow, subBefore: SubscriptionRow | undefined): Promise<void> {
  const m = await memberships.findMembership(tx, before.brand_id, before.mode, before.id);
  if (!m) return;
  const sub = m.subscription_id ? await subscriptions.findSubscription(tx, m.brand_id, m.subscription_id) : undefined;
  const endedNow = before.status === 'active' && m.status !== 'active';
  const endsLater = !endedNow && !!sub?.cancel_at_period_end && !subBefore?.cancel_at_period_end;
  if (!endedNow && !endsLater) return;
  await queueMail(tx, {
    brandId: m.brand_id, mode: m.mode, kind: 'cancellation', to: { email: m.email, name: m.name },
    data: { buyerName: m.name, item: await memberships.membershipItem(tx, m), accessUntil: endsLater ? sub!.current_period_end.toISOString() : null },
    dedupeKey: `cancel:${m.id}:${endedNow ? 'now' : `end:${sub!.current_period_end.toISOString()}`}`,
  });
}
