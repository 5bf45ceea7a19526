import type { Requester, RequestOptions } from '../request.ts';
import type { CustomerSession, CustomerSessionParams } from '../types.ts';

/** The buyer portal (docs/portal.md). */
export class CustomerSessions {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /**
   * POST /customer-sessions: a one-time URL into the buyer portal for one of the brand's buyers,
   * valid 15 minutes; `deepLink` opens it on a subscription, membership, txref or item of theirs,
   * `returnUrl` is where its "Back" link leads. Redirect the buyer to `url`. Scope `customers:write`.
   */
  create(params: CustomerSessionParams, options?: RequestOptions): Promise<CustomerSession> {
    return this.#r.request({ method: 'POST', path: '/customer-sessions', body: params, options });
  }
}
