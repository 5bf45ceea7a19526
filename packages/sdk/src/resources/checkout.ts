import type { Requester, RequestOptions } from '../request.ts';
import type { PaymentLink, PaymentLinkCreateParams, PaymentVerifyParams, Transaction } from '../types.ts';

export class PaymentLinks {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** POST /payment-links: a hosted checkout link for one buyer. Scope `checkout:write`. */
  create(params: PaymentLinkCreateParams, options?: RequestOptions): Promise<PaymentLink> {
    return this.#r.request({ method: 'POST', path: '/payment-links', body: params, options });
  }
}

export class Payments {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** POST /payments/verify: asks the provider again and returns the transaction; safe to repeat. Scope `transactions:read` or `checkout:write`. */
  verify(params: PaymentVerifyParams, options?: RequestOptions): Promise<Transaction> {
    return this.#r.request({ method: 'POST', path: '/payments/verify', body: params, options });
  }
}
