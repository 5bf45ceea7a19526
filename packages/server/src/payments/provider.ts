import type { Queryable } from '../db/client.ts';
import type { Purchase, Recurrence } from '../checkout/pricing.ts';

/** What a provider says about one payment. */
export type PaymentState =
  /** Not settled yet; `redirectUrl` is where the buyer finishes paying when the provider hosts that page (Stripe Checkout). */
  | { status: 'pending'; redirectUrl?: string }
  | { status: 'succeeded' }
  | { status: 'failed'; code: string; message: string }
  | { status: 'refunded' };

/** One input the hosted checkout page shows for this provider. */
export interface PaymentDetailField {
  name: string;
  label: string;
  hint?: string;
  autocomplete?: string;
  inputmode?: 'numeric' | 'text';
}

export interface NewPayment {
  brandId: string;
  /** Our transaction reference, so the provider's records can be matched to ours. */
  txref: string;
  /** Minor units. */
  amount: number;
  currency: string;
  description: string;
  /** Set when a payment link is being paid (not on renewals): who pays, and what recurs. */
  checkout?: {
    paymentLinkId: string;
    customerEmail: string;
    /** The recurring tier's terms when the link buys one: a provider that bills renewals itself sets that up now. */
    recurrence?: Recurrence;
    /**
     * The link's coupon (coupons/apply.ts): what it took off this payment (already out of
     * `amount`) and, on a recurring tier, what it takes off each renewal and for how many
     * payments in all (null: every one). A provider that bills renewals itself carries it on.
     */
    coupon?: { code: string; discount: number; renewals?: { amount: number; periods: number | null } };
  };
}

/**
 * A payment provider. The hosted checkout page is ours; the provider holds the money side:
 * it opens a payment, confirms it with what the buyer typed, and answers "what is the state of
 * this payment?" for POST /payments/verify.
 *
 * Every call gets `db`, the connection (or open transaction) of the caller: the built-in sandbox
 * keeps its payments in our database; a provider with its own servers ignores it.
 */
export interface PaymentProvider {
  readonly name: string;
  /** The inputs the hosted page asks for, in order. */
  readonly detailFields: PaymentDetailField[];
  /**
   * Set when the buyer pays on the provider's own page (Stripe Checkout): its name for our page's
   * button, and its origin, which our payment form may send the buyer on to.
   */
  readonly hostedPage?: { name: string; origin: string };
  /** Checks a link's purchases at creation for what this provider cannot sell: a message, or null. */
  checkPurchases?(purchases: Purchase[]): string | null;
  /** Checks what the buyer typed before an attempt is recorded: a message to show them, or null. */
  checkDetails(details: Record<string, string>): string | null;
  createPayment(db: Queryable, payment: NewPayment): Promise<{ reference: string }>;
  /** Charges the payment. Idempotent: confirming a payment that is no longer pending returns its state and charges nothing. */
  confirmPayment(db: Queryable, input: { brandId: string; reference: string; details: Record<string, string> }): Promise<PaymentState>;
  /** The provider's current view of the payment: the truth POST /payments/verify reconciles with. */
  lookupPayment(db: Queryable, input: { brandId: string; reference: string }): Promise<PaymentState>;
  /**
   * The reusable payment method behind a succeeded payment, for renewals: the provider keeps
   * the card; we keep only this reference. Null when the provider kept nothing.
   */
  savedMethodOf(db: Queryable, input: { brandId: string; reference: string }): Promise<string | null>;
  /**
   * Charges a pending payment (from createPayment) with a saved method, with no buyer present
   * (a renewal). Idempotent like confirmPayment: a payment no longer pending is not charged again.
   */
  chargeSavedMethod(db: Queryable, input: { brandId: string; reference: string; method: string }): Promise<PaymentState>;
  /**
   * The buyer portal's "Update card" where the card form is ours (the sandbox): saves the card the
   * buyer typed, without charging it, as a method chargeSavedMethod can charge. A card the
   * provider refuses at once is `{ error }`, in words for the buyer.
   */
  saveMethod?(db: Queryable, input: { brandId: string; details: Record<string, string> }): Promise<{ method: string } | { error: string }>;
  /**
   * The buyer portal's "Update card" where the provider keeps the card and bills renewals itself
   * (Stripe): the address of its own page for the subscription it knows as `reference`, which
   * sends the buyer back to `returnUrl`.
   */
  cardUpdateUrl?(input: { reference: string; returnUrl: string }): Promise<string>;
  /**
   * For a provider that bills renewals itself (Stripe): stop billing the subscription it knows as
   * `reference`, at the end of the paid period or now. Idempotent.
   */
  cancelSubscription?(input: { reference: string; atPeriodEnd: boolean }): Promise<void>;
  /**
   * Gives `amount` (minor units) of a succeeded payment back to the buyer (docs/refunds.md).
   * Idempotent per `refundId` (our refund's id, the provider's idempotency key): asking again with
   * the same id answers the first refund and moves no money. A refund the provider refuses (more
   * than is left, say) is `failed` with its reason; one it is still processing is `pending`.
   */
  refundPayment(db: Queryable, input: NewRefund): Promise<RefundState>;
  /**
   * For a provider that plays disputes offline (the sandbox's test card 4000 0000 0000 0259): the
   * dispute a payment that has just succeeded opens, or null. Asked once, when the payment
   * settles; what follows is what a provider's dispute report does (refunds/disputes.ts).
   */
  disputeOpenedBy?(db: Queryable, input: { brandId: string; reference: string }): Promise<{ reference: string; reason: string } | null>;
  /** Where a refund the provider answered `pending` stands now, by the reference it gave. */
  lookupRefund?(db: Queryable, input: { brandId: string; reference: string }): Promise<RefundState>;
}

export interface NewRefund {
  brandId: string;
  /** The payment's reference (as createPayment returned it, or the provider's invoice for its own renewals). */
  reference: string;
  refundId: string;
  /** Minor units, at most what is left of the payment. */
  amount: number;
  currency: string;
  txref: string;
  reason: string | null;
}

/** What a provider says about one refund; `reference` is its own id for it. */
export type RefundState =
  | { status: 'succeeded'; reference: string }
  | { status: 'pending'; reference: string }
  | { status: 'failed'; reference: string | null; message: string };
