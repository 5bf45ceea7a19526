import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { ListParams, Membership, Payout, PayoutDetail, RequestBody, ResponseData } from '../types.ts';
import { list, segment } from './resource.ts';

export class Memberships {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** POST /memberships/{id}/cancel: at period end (stop renewing) or now (remove; no refund). Scope `customers:write`. */
  cancel(membershipId: string, params: RequestBody<'cancelMembership'>, options?: RequestOptions): Promise<Membership> {
    return this.#r.request({ method: 'POST', path: `/memberships/${segment(membershipId, 'membershipId')}/cancel`, body: params, options });
  }

  /** POST /memberships/{id}/resume: undoes a cancel at period end before the period ends (it renews again). Scope `customers:write`. */
  resume(membershipId: string, options?: RequestOptions): Promise<Membership> {
    return this.#r.request({ method: 'POST', path: `/memberships/${segment(membershipId, 'membershipId')}/resume`, options });
  }
}

export class Payouts {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /payouts: settled payouts of the key's mode, newest first. Scope `transactions:read`. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Payout> {
    return list(this.#r, '/payouts', params, options);
  }

  /** GET /payouts/{id}. Scope `transactions:read`. */
  get(payoutId: string, options?: RequestOptions): Promise<PayoutDetail> {
    return this.#r.request({ method: 'GET', path: `/payouts/${segment(payoutId, 'payoutId')}`, options });
  }
}

/** Test mode only: a live key gets NotFoundError. */
export class TestClock {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /test-clock: the brand's test-mode time. */
  get(options?: RequestOptions): Promise<ResponseData<'getTestClock'>> {
    return this.#r.request({ method: 'GET', path: '/test-clock', options });
  }

  /** POST /test-clock/advance: moves test-mode time forward `by` ("31d") or `to` an ISO time, running what falls due. */
  advance(params: RequestBody<'advanceTestClock'>, options?: RequestOptions): Promise<ResponseData<'advanceTestClock'>> {
    return this.#r.request({ method: 'POST', path: '/test-clock/advance', body: params, options });
  }
}
