import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { FulfilmentParams, RefundParams, Transaction, TransactionListParams, TransactionTotals, TransactionTotalsParams } from '../types.ts';
import { list, segment } from './resource.ts';

export class Transactions {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /**
   * GET /transactions: payment attempts of the key's mode, newest first, optionally filtered by
   * `status`, `resourceID`, `createdFrom`, `createdBefore`, `q` (txref, or part of the email) and
   * `fulfilment`; `order: 'oldest'` pages oldest first (the fulfilment queue).
   * Scope `transactions:read`.
   */
  list(params?: TransactionListParams, options?: RequestOptions): PagePromise<Transaction> {
    return list(this.#r, '/transactions', params, options);
  }

  /** GET /transactions/totals: what the transactions the same filters select add up to, per currency. Scope `transactions:read`. */
  totals(params: TransactionTotalsParams = {}, options?: RequestOptions): Promise<TransactionTotals> {
    return this.#r.request({ method: 'GET', path: '/transactions/totals', query: params, options });
  }

  /** GET /transactions/{txref}. Scope `transactions:read`. */
  get(txref: string, options?: RequestOptions): Promise<Transaction> {
    return this.#r.request({ method: 'GET', path: `/transactions/${segment(txref, 'txref')}`, options });
  }

  /**
   * POST /transactions/{txref}/refund: gives money back to the buyer (docs/refunds.md). Without
   * `amount`, all that is left, which also ends the access it bought unless `revokeAccess: false`.
   * The request carries an Idempotency-Key, reused on retries, so a retried refund never pays twice.
   * Scope `transactions:write`.
   */
  refund(txref: string, params: RefundParams = {}, options?: RequestOptions): Promise<Transaction> {
    return this.#r.request({ method: 'POST', path: `/transactions/${segment(txref, 'txref')}/refund`, body: params, options });
  }

  /**
   * POST /transactions/{txref}/fulfilment: moves a paid order of a physical product one step
   * (docs/shipping.md): `shipped` with `carrier` and `trackingNumber` for a delivery,
   * `ready_for_pickup` then `picked_up` for a pickup. Sends `order.shipped` / `order.ready_for_pickup`
   * and emails the buyer; any other step is a 409. Scope `transactions:write`.
   */
  fulfil(txref: string, params: FulfilmentParams, options?: RequestOptions): Promise<Transaction> {
    return this.#r.request({ method: 'POST', path: `/transactions/${segment(txref, 'txref')}/fulfilment`, body: params, options });
  }

  /** GET /transactions/{txref}/invoice: a succeeded transaction's invoice as PDF bytes. Scope `transactions:read`. */
  invoice(txref: string, options?: RequestOptions): Promise<Uint8Array> {
    return this.#r.request({ method: 'GET', path: `/transactions/${segment(txref, 'txref')}/invoice`, options, bytes: 'application/pdf' });
  }
}
