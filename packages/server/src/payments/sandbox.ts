import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import type { NewRefund, PaymentProvider, PaymentState, RefundState } from './provider.ts';

/**
 * The built-in provider for test mode: no network, no real money, and the outcome chosen by the
 * test card the buyer types. It asks for a card number only (no expiry, no CVC), and keeps its
 * payments in the `sandbox_payments` table so that any process, including one started after a
 * restart, sees the same state.
 */

type CardOutcome = { status: 'succeeded' } | { status: 'failed'; code: string; message: string };

// A Map, not an object literal: the buyer types the key, and "constructor" or "__proto__" must
// not find Object.prototype's members.
export const testCards = new Map<string, CardOutcome & { label: string }>([
  ['4242424242424242', { label: 'succeeds', status: 'succeeded' }],
  ['4000000000000002', { label: 'is declined', status: 'failed', code: 'card_declined', message: 'The card was declined.' }],
  ['4000000000009995', { label: 'fails for insufficient funds', status: 'failed', code: 'insufficient_funds', message: 'The card has insufficient funds.' }],
  // Succeeds on its first charge in a brand and declines every later one: a subscription whose
  // card starts failing at its first renewal.
  ['4000000000000341', { label: 'succeeds once per brand, then is declined', status: 'succeeded' }],
  // Like Stripe's 4000 0000 0000 0259: the payment succeeds, then the buyer disputes it as fraudulent.
  ['4000000000000259', { label: 'succeeds, then the buyer disputes it', status: 'succeeded' }],
]);

/** The card whose payments are disputed right after they succeed (docs/refunds.md, Disputes). */
export const disputedCard = '4000000000000259';

const failsAfterFirst = '4000000000000341';
const declined: CardOutcome = { status: 'failed', code: 'card_declined', message: 'The card was declined.' };

/** What charging `card` does now in this brand. */
async function outcomeOf(db: Queryable, brandId: string, card: string): Promise<CardOutcome> {
  const outcome: CardOutcome = testCards.get(card) ?? { status: 'failed', code: 'invalid_card', message: 'Not a sandbox test card.' };
  if (card !== failsAfterFirst) return outcome;
  const [charged] = await db.query('SELECT 1 FROM sandbox_payments WHERE brand_id = $1 AND card = $2 AND status = \'succeeded\' LIMIT 1', [brandId, card]);
  return charged ? declined : outcome;
}

/** One conditional update: of two charges racing, exactly one moves the payment on; the other reads the state the first one left. */
async function charge(db: Queryable, brandId: string, reference: string, card: string): Promise<PaymentState> {
  const outcome = await outcomeOf(db, brandId, card);
  const [row] = await db.query<SandboxRow>(
    `UPDATE sandbox_payments
     SET status = $3, failure_code = $4, card_last4 = $5, card = $6, updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND reference = $2 AND status = 'pending'
     RETURNING status, failure_code`,
    [brandId, reference, outcome.status, outcome.status === 'failed' ? outcome.code : null, card.slice(-4) || null, testCards.has(card) ? card : null],
  );
  return stateOf(row ?? await current(db, brandId, reference));
}

/** Cards saved by themselves (the portal's "Update card"), not charged yet: sandbox_methods. */
const savedPrefix = 'sbx_pm_';

const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

const cardNumber = (details: Record<string, string>) => (details.card ?? '').replace(/[\s-]/g, '');

interface SandboxRow {
  status: 'pending' | 'succeeded' | 'failed' | 'refunded';
  failure_code: string | null;
}

function stateOf(row: SandboxRow): PaymentState {
  if (row.status === 'failed') {
    const card = [...testCards.values()].find((c) => c.status === 'failed' && c.code === row.failure_code);
    return { status: 'failed', code: row.failure_code ?? 'card_declined', message: card?.status === 'failed' ? card.message : 'The payment failed.' };
  }
  return { status: row.status };
}

async function current(db: Queryable, brandId: string, reference: string): Promise<SandboxRow> {
  const [row] = await db.query<SandboxRow>(
    'SELECT status, failure_code FROM sandbox_payments WHERE brand_id = $1 AND reference = $2',
    [brandId, reference],
  );
  if (!row) throw new Error(`The sandbox has no payment ${reference}.`);
  return row;
}

export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',
  detailFields: [{
    name: 'card',
    label: 'Card number',
    hint: `Test cards: ${[...testCards].map(([n, c]) => `${spaced(n)} ${c.label}`).join('; ')}.`,
    autocomplete: 'off',
    inputmode: 'numeric',
  }],

  checkDetails(details) {
    const card = cardNumber(details);
    if (!card) return 'Enter a card number.';
    if (testCards.has(card)) return null;
    return `${/^\d+$/.test(card) ? 'That' : 'That card number'} is not a sandbox test card. `
      + 'Use 4242 4242 4242 4242 (succeeds), 4000 0000 0000 0002 (declined), 4000 0000 0000 9995 (insufficient funds), '
      + '4000 0000 0000 0341 (succeeds once per brand, then is declined) '
      + 'or 4000 0000 0000 0259 (succeeds, then the buyer disputes it).';
  },

  async createPayment(db, payment) {
    const reference = `sbx_${randomBytes(15).toString('base64url')}`;
    await db.query(
      'INSERT INTO sandbox_payments (brand_id, reference, amount, currency, description, status) VALUES ($1, $2, $3, $4, $5, \'pending\')',
      [payment.brandId, reference, payment.amount, payment.currency, `${payment.txref}: ${payment.description}`],
    );
    return { reference };
  },

  async confirmPayment(db, { brandId, reference, details }) {
    return charge(db, brandId, reference, cardNumber(details));
  },

  async savedMethodOf(db, { brandId, reference }) {
    const [row] = await db.query<{ card: string | null }>('SELECT card FROM sandbox_payments WHERE brand_id = $1 AND reference = $2', [brandId, reference]);
    return row?.card ? reference : null;
  },

  async chargeSavedMethod(db, { brandId, reference, method }) {
    // A method is the payment its card was first charged with, or a card saved by itself (saveMethod).
    const [saved] = method.startsWith(savedPrefix)
      ? await db.query<{ card: string | null }>('SELECT card FROM sandbox_methods WHERE brand_id = $1 AND reference = $2', [brandId, method])
      : await db.query<{ card: string | null }>('SELECT card FROM sandbox_payments WHERE brand_id = $1 AND reference = $2', [brandId, method]);
    return charge(db, brandId, reference, saved?.card ?? '');
  },

  async saveMethod(db, { brandId, details }) {
    const problem = sandboxProvider.checkDetails(details);
    if (problem) return { error: problem };
    const card = cardNumber(details);
    // As Stripe checks a card when it is saved: one that is always declined is refused now, not at the next renewal.
    const outcome = testCards.get(card)!;
    if (outcome.status === 'failed' && outcome.code === 'card_declined') return { error: `${outcome.message} Try another card.` };
    const method = `${savedPrefix}${randomBytes(15).toString('base64url')}`;
    await db.query('INSERT INTO sandbox_methods (brand_id, reference, card) VALUES ($1, $2, $3)', [brandId, method, card]);
    return { method };
  },

  async lookupPayment(db, { brandId, reference }) {
    return stateOf(await current(db, brandId, reference));
  },

  async disputeOpenedBy(db, { brandId, reference }) {
    const [row] = await db.query<{ card: string | null; status: string }>('SELECT card, status FROM sandbox_payments WHERE brand_id = $1 AND reference = $2', [brandId, reference]);
    // The dispute's id is the payment's own, so asking twice names the same dispute.
    return row?.card === disputedCard && row.status === 'succeeded' ? { reference: `sbx_du_${reference.slice('sbx_'.length)}`, reason: 'fraudulent' } : null;
  },

  async refundPayment(db, refund) {
    return refundSandboxPayment(db, refund);
  },

  async lookupRefund(db, { brandId, reference }) {
    const [row] = await db.query('SELECT 1 FROM sandbox_refunds WHERE brand_id = $1 AND reference = $2', [brandId, reference]);
    return row ? { status: 'succeeded', reference } : { status: 'failed', reference, message: 'The sandbox has no such refund.' };
  },
};

/**
 * A sandbox refund, at once and in full or in part. Keyed by the caller's refund id: the row
 * keyed by it is inserted first (a twin racing with the same id waits on it and then inserts
 * nothing), and only an inserted row moves the payment's refunded amount, conditional on enough
 * being left; a repeat finds that row and answers it again.
 */
async function refundSandboxPayment(db: Queryable, r: NewRefund): Promise<RefundState> {
  const [done] = await db.query<{ reference: string }>(
    'SELECT reference FROM sandbox_refunds WHERE brand_id = $1 AND idempotency_key = $2', [r.brandId, r.refundId]);
  if (done) return { status: 'succeeded', reference: done.reference };
  const reference = `sbx_re_${randomBytes(12).toString('base64url')}`;
  const [outcome] = await db.query<{ inserted: boolean; moved: boolean }>(
    `WITH ins AS (
       INSERT INTO sandbox_refunds (brand_id, idempotency_key, reference, payment, amount)
       VALUES ($1, $3, $5, $2, $4)
       ON CONFLICT (brand_id, idempotency_key) DO NOTHING
       RETURNING reference
     ), paid AS (
       UPDATE sandbox_payments
       SET refunded_amount = refunded_amount + $4,
           status = CASE WHEN refunded_amount + $4 = amount THEN 'refunded' ELSE status END,
           updated_at = date_trunc('milliseconds', clock_timestamp())
       WHERE brand_id = $1 AND reference = $2 AND status = 'succeeded' AND refunded_amount + $4 <= amount
         AND EXISTS (SELECT 1 FROM ins)
       RETURNING reference
     )
     SELECT EXISTS (SELECT 1 FROM ins) AS inserted, EXISTS (SELECT 1 FROM paid) AS moved`,
    [r.brandId, r.reference, r.refundId, r.amount, reference],
  );
  if (outcome.moved) return { status: 'succeeded', reference };
  if (!outcome.inserted) return refundSandboxPayment(db, r); // a twin with the same id made it: answer that one
  // Recorded but refused: forget the row, so the id does not stand for a refund that moved nothing.
  await db.query('DELETE FROM sandbox_refunds WHERE brand_id = $1 AND idempotency_key = $2', [r.brandId, r.refundId]);
  const payment = await current(db, r.brandId, r.reference);
  return {
    status: 'failed',
    reference: null,
    message: payment.status === 'refunded' ? 'The sandbox payment is already fully refunded.'
      : payment.status === 'succeeded' ? 'The amount is more than is left to refund on the sandbox payment.'
        : `The sandbox payment is ${payment.status}, so there is nothing to refund.`,
  };
}
