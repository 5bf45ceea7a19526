import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/client.ts';
import { recordEvent } from '../events/service.ts';
import { AppError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { activateMembership } from '../memberships/repository.ts';
import { memberJoinedData } from '../memberships/service.ts';
import type { PaymentProvider, PaymentState } from '../payments/provider.ts';
import { providerForMode, providerNamed } from '../payments/providers.ts';
import { renderTransaction } from '../transactions/service.ts';
import * as repo from './repository.ts';
import type { AttemptRow, PaymentLinkRow } from './repository.ts';

/**
 * Paying a link, in three steps, so that no step can charge twice or grant twice:
 *  1. under a lock on the link, join the link's pending attempt or record a new one (a pending
 *     transaction with the provider's payment reference), and commit it, so the attempt exists
 *     before any money moves and verify can always find it;
 *  2. confirm the payment with the provider (idempotent per reference: a second confirmation
 *     charges nothing and reads the first one's outcome);
 *  3. settle: one conditional update moves the transaction out of `pending`, and only the caller
 *     that moved it completes the link, grants memberships and records the events, all in that
 *     same database transaction.
 * If the process dies between 2 and 3, the transaction stays pending until POST /payments/verify
 * (or the buyer's next submission) asks the provider and settles it.
 */

export type FinalState = { status: 'succeeded' } | { status: 'failed'; code: string; message: string };

export interface PayResult {
  link: PaymentLinkRow;
  attempt: AttemptRow;
}

const isFinal = (s: PaymentState): s is FinalState => s.status === 'succeeded' || s.status === 'failed';

/** The provider that takes a link's payment; free links need none. */
function providerOf(link: PaymentLinkRow): PaymentProvider | undefined {
  if (link.amount === 0) return undefined;
  const provider = providerForMode(link.mode);
  if (!provider) throw new AppError('service_unavailable', 'Live payments are not configured on this server, so this link cannot be paid.');
  return provider;
}

export async function payLink(db: Db, brandId: string, linkId: string, details: Record<string, string>): Promise<PayResult> {
  const link = await repo.findLink(db, brandId, linkId);
  if (!link) throw notFound('payment link');
  if (link.status === 'completed') return { link, attempt: await paidAttempt(db, link) };
  const provider = providerOf(link);
  const problem = provider?.checkDetails(details);
  if (problem) throw new AppError('validation_failed', problem, [{ field: 'card', message: problem }]);

  const begun = await beginAttempt(db, brandId, linkId);
  if (begun.link.status === 'completed') return begun;
  const { attempt } = begun;
  const state: PaymentState = provider && attempt.provider_reference
    ? await provider.confirmPayment(db, { brandId, reference: attempt.provider_reference, details })
    : { status: 'succeeded' };
  if (!isFinal(state)) return begun;
  const settled = await db.transaction((tx) => settleAttempt(tx, attempt, state));
  return { link: (await repo.findLink(db, brandId, linkId))!, attempt: settled };
}

/** Step 1: the link's pending attempt, or a new one; a paid link returns the attempt that paid it. */
export async function beginAttempt(db: Db, brandId: string, linkId: string): Promise<PayResult> {
  return db.transaction(async (tx) => {
    const link = await repo.findLink(tx, brandId, linkId, { forUpdate: true });
    if (!link) throw notFound('payment link');
    if (link.status === 'completed') return { link, attempt: await paidAttempt(tx, link) };
    const pending = await repo.pendingAttempt(tx, brandId, linkId);
    if (pending) return { link, attempt: pending };
    const provider = providerOf(link);
    const txref = `tx_${randomBytes(15).toString('base64url')}`;
    const payment = provider
      ? await provider.createPayment(tx, { brandId, txref, amount: link.amount, currency: link.currency, description: link.line_items[0]?.description ?? 'Purchase' })
      : undefined;
    const attempt = await repo.insertAttempt(tx, {
      brand_id: brandId,
      id: newId('txn'),
      txref,
      mode: link.mode,
      type: 'purchase',
      status: 'pending',
      amount: link.amount,
      currency: link.currency,
      customer_name: link.buyer_name,
      customer_email: link.buyer_email,
      resource_id: link.resource_id,
      metadata: link.metadata,
      payment_link_id: link.id,
      provider: provider?.name ?? null,
      provider_reference: payment?.reference ?? null,
    });
    return { link, attempt };
  });
}

async function paidAttempt(db: Queryable, link: PaymentLinkRow): Promise<AttemptRow> {
  const attempt = link.transaction_id ? await repo.findAttemptById(db, link.brand_id, link.transaction_id) : undefined;
  if (!attempt) throw new Error(`Payment link ${link.id} is completed without its transaction.`);
  return attempt;
}

/** What the provider now says about a pending attempt (a free attempt has no provider: it is due to succeed). */
export async function providerState(db: Queryable, attempt: AttemptRow): Promise<PaymentState> {
  if (attempt.provider && attempt.provider_reference) {
    const provider = providerNamed(attempt.provider);
    return provider ? provider.lookupPayment(db, { brandId: attempt.brand_id, reference: attempt.provider_reference }) : { status: 'pending' };
  }
  return attempt.payment_link_id && attempt.amount === 0 ? { status: 'succeeded' } : { status: 'pending' };
}

/**
 * Step 3, in the caller's database transaction: moves the attempt to the provider's outcome and,
 * for the one caller that moved it, records what follows. Returns the attempt as it now stands.
 */
export async function settleAttempt(tx: Queryable, attempt: AttemptRow, state: FinalState): Promise<AttemptRow> {
  const moved = await repo.finishAttempt(tx, attempt.brand_id, attempt.id, state);
  if (!moved) return (await repo.findAttemptById(tx, attempt.brand_id, attempt.id))!;
  const scope = { brandId: moved.brand_id, mode: moved.mode };
  if (moved.status === 'failed') {
    await recordEvent(tx, { ...scope, type: 'transaction.failed', data: renderTransaction(moved) });
    return moved;
  }
  await recordEvent(tx, { ...scope, type: 'transaction.succeeded', data: renderTransaction(moved) });
  const link = moved.payment_link_id ? await repo.completeLink(tx, moved.brand_id, moved.payment_link_id, moved.id) : undefined;
  if (!link) return moved;
  for (const purchase of link.purchases) {
    const targets = [
      ...(purchase.productId ? [{ product_id: purchase.productId, hub_id: null }] : []),
      ...(purchase.hubId ? [{ product_id: null, hub_id: purchase.hubId }] : []),
    ];
    for (const target of targets) {
      const { row, joined } = await activateMembership(tx, {
        brand_id: link.brand_id,
        id: newId('mem'),
        mode: link.mode,
        ...target,
        name: link.buyer_name,
        email: link.buyer_email,
        phone: link.buyer_phone,
        fields: link.form_data,
        plan: purchase.tierId,
      });
      if (joined) await recordEvent(tx, { ...scope, type: 'member.joined', data: memberJoinedData(row) });
    }
  }
  return moved;
}
