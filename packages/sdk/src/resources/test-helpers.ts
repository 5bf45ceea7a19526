import type { Requester, RequestOptions } from '../request.ts';
import type { DisputeCloseParams, RequestBody, ResponseData, Transaction } from '../types.ts';
import { segment } from './resource.ts';

/**
 * Test mode only (a live key gets NotFoundError), everything under /test/: what a buyer does on the
 * hosted pages and what time does, from code.
 */
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

  /** GET /test/clock: the brand's test-mode time (the same clock as `client.testClock`). Any test key. */
  clock(options?: RequestOptions): Promise<ResponseData<'readTestHelperClock'>> {
    return this.#r.request({ method: 'GET', path: '/test/clock', options });
  }

  /**
   * POST /test/clock/advance: moves test-mode time forward `by` ("31d") or `to` an ISO time and
   * runs what falls due meanwhile (renewals, retries, ends of access, payout runs) before it
   * resolves. Any test key.
   */
  advanceClock(params: RequestBody<'advanceTestHelperClock'>, options?: RequestOptions): Promise<ResponseData<'advanceTestHelperClock'>> {
    return this.#r.request({ method: 'POST', path: '/test/clock/advance', body: params, options });
  }
}
