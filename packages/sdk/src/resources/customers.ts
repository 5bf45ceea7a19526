import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Customer, CustomerDetail, CustomerSearchParams, SubscriptionListParams, SubscriptionSummary } from '../types.ts';
import { list, segment } from './resource.ts';

/** Our addition (docs/customers.md): everyone who bought or joined, one entry per email. */
export class Customers {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /customers: newest first, with lifetime value per currency; filter by `q`, `product`, `hub`, `status`, `consent`. Scope `customers:read`. */
  list(params?: CustomerSearchParams, options?: RequestOptions): PagePromise<Customer> {
    return list(this.#r, '/customers', params, options);
  }

  /** GET /customers/{id}: memberships, subscriptions, transactions and emails sent. Scope `customers:read`. */
  get(customerId: string, options?: RequestOptions): Promise<CustomerDetail> {
    return this.#r.request({ method: 'GET', path: `/customers/${segment(customerId, 'customerId')}`, options });
  }
}

/** Our addition (docs/subscriptions.md): the subscriptions list; cancel and resume go through `client.memberships`. */
export class Subscriptions {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /subscriptions: newest first, with next renewal and MRR; filter by `status`, `product`, `hub`, `tier`, `customer`. Scope `customers:read`. */
  list(params?: SubscriptionListParams, options?: RequestOptions): PagePromise<SubscriptionSummary> {
    return list(this.#r, '/subscriptions', params, options);
  }
}
