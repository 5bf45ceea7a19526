import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { recordEvent, type NewEvent } from '../events/service.ts';
import * as repo from './repository.ts';
import type { TransactionRow } from './repository.ts';
import { renderTransaction } from './service.ts';

/**
 * A transaction's life (DOMAIN.md: pending → succeeded or failed, then refunded or disputed) is
 * recorded here, whoever moved it: checkout (a paid link), subscriptions (a renewal, ours or the
 * provider's) and the Stripe handler all settle through `settleTransaction`, and refunds/ (a
 * refund, a dispute) reports what it changed through `recordRefunded` and `recordDisputed`, so the
 * `transaction.*` events are recorded by this folder only.
 */

/** The one way a transaction reference is made: `tx_` and 20 random URL-safe characters. */
export const newTxref = () => `tx_${randomBytes(15).toString('base64url')}`;

export type SettleState = { status: 'succeeded' } | { status: 'failed'; code: string; message: string };

/**
 * Moves a pending transaction to its outcome and records `transaction.succeeded` or
 * `transaction.failed` with it. One conditional update: of any number of callers racing (the
 * browser's return, a webhook, the reconciler, several workers) one moves it and gets the row;
 * the others get undefined and must do nothing more. A transaction an OAuth app started names
 * the app in its events too. `before` runs on the moved row before the event (the caller's own
 * consequences that must come first or show in it: a booking confirmed or let go, an affiliate's
 * commission); the row it returns is what the event carries and what is returned.
 */
export async function settleTransaction(
  tx: Queryable,
  payment: TransactionRow,
  state: SettleState,
  before?: (tx: Queryable, moved: TransactionRow) => Promise<TransactionRow>,
): Promise<TransactionRow | undefined> {
  let moved = await repo.finishPending(tx, payment.brand_id, payment.id, state);
  if (!moved) return undefined;
  if (before) moved = await before(tx, moved);
  await recordEvent(tx, {
    brandId: moved.brand_id, mode: moved.mode, appId: moved.app_id ?? null,
    type: moved.status === 'succeeded' ? 'transaction.succeeded' : 'transaction.failed',
    data: renderTransaction(moved),
  });
  return moved;
}

/**
 * `transaction.refunded` for a payment a refund has just moved (refunds/), with the refund as
 * refunds/ renders it: the row is the transaction after the refund.
 */
export async function recordRefunded(tx: Queryable, moved: TransactionRow, refund: NewEvent<'transaction.refunded'>['data']['refund'], appId?: string | null) {
  await recordEvent(tx, {
    brandId: moved.brand_id, mode: moved.mode, appId: appId ?? null,
    type: 'transaction.refunded',
    data: { ...renderTransaction(moved), refund },
  });
}

/** `transaction.disputed` for a payment whose dispute (opened, changed or closed) refunds/ has just written. */
export async function recordDisputed(tx: Queryable, marked: TransactionRow) {
  await recordEvent(tx, { brandId: marked.brand_id, mode: marked.mode, type: 'transaction.disputed', data: renderTransaction(marked), appId: marked.app_id ?? null });
}
