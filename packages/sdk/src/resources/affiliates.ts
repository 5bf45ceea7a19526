import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Affiliate, AffiliateCreateParams, AffiliateListParams, AffiliateUpdateParams } from '../types.ts';
import { list, segment } from './resource.ts';

/** Affiliates and their commissions (docs/affiliates.md). Mode-scoped: a test key sees test affiliates. */
export class Affiliates {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** POST /affiliates: someone who earns a percent of the net of the sales their `code` brings. Scope `products:write`. */
  create(params: AffiliateCreateParams, options?: RequestOptions): Promise<Affiliate> {
    return this.#r.request({ method: 'POST', path: '/affiliates', body: params, options });
  }

  /** GET /affiliates: newest first, each with its sales and commission per currency (`status` filters). Scope `products:read` or `transactions:read`. */
  list(params?: AffiliateListParams, options?: RequestOptions): PagePromise<Affiliate> {
    return list(this.#r, '/affiliates', params, options);
  }

  /** GET /affiliates/{id}: with attributed sales and commission pending, earned and paid out. Scope `products:read` or `transactions:read`. */
  get(id: string, options?: RequestOptions): Promise<Affiliate> {
    return this.#r.request({ method: 'GET', path: `/affiliates/${segment(id, 'id')}`, options });
  }

  /** PATCH /affiliates/{id}: change percent, code or recurring, or archive (`status: 'archived'`). Scope `products:write`. */
  update(id: string, params: AffiliateUpdateParams, options?: RequestOptions): Promise<Affiliate> {
    return this.#r.request({ method: 'PATCH', path: `/affiliates/${segment(id, 'id')}`, body: params, options });
  }
}
