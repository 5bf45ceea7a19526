import type { Requester, RequestOptions } from '../request.ts';
import type { DisputeCloseParams, RequestBody, Transaction } from '../types.ts';
import { segment } from './resource.ts';

/** Test mode only (a live key gets NotFoundError): what a buyer does on the hosted pages, from code. */
export class TestHelpers {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /**
   * POST /test/payment-links/{id}/pay: pays a test payment link with a sandbox card, exactly as
   * the hosted page's form does (`4242 4242 4242 4242` succeeds, `4000 0000 0000 0002` is
   * declined). Resolves to the transaction, `succeeded` or `failed`. Scope `checkout:write`.
   */
  payPaymentLink(paymentLinkId: string, params: RequestBody<'payTestPaymentLink'>, options?: RequestOptions): Promise<Transaction> {
    return this.#r.request({ method: 'POST', path: `/test/payment-links/${segment(paymentLinkId, 'paymentLinkId')}/pay`, body: params, options });
  }

  /**
   * POST /test/transactions/{txref}/dispute/close: decides the dispute that sandbox card
   * `4000 0000 0000 0259` opened, as the buyer's bank would: `won`, or `lost` (a refund of the
   * disputed amount; docs/refunds.md, Disputes). Resolves to the transaction. Scope `transactions:write`.
   */
  closeDispute(txref: string, params: DisputeCloseParams, options?: RequestOptions): Promise<Transaction> {
    return this.#r.request({ method: 'POST', path: `/test/transactions/${segment(txref, 'txref')}/dispute/close`, body: params, options });
  }
}
