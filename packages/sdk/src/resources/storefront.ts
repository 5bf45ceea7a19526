import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Brand, BrandUpdateParams, CheckoutLink, CheckoutLinkCreateParams, CheckoutLinkListParams, CheckoutLinkUpdateParams } from '../types.ts';
import { list, segment } from './resource.ts';

export class BrandProfile {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /brand: the brand profile the public storefront shows, with its address. Scope `products:read`. */
  get(options?: RequestOptions): Promise<Brand> {
    return this.#r.request({ method: 'GET', path: '/brand', options });
  }

  /** PATCH /brand: changes the fields sent (`null` clears one); a slug another brand holds is a ConflictError. Scope `products:write`. */
  update(params: BrandUpdateParams, options?: RequestOptions): Promise<Brand> {
    return this.#r.request({ method: 'PATCH', path: '/brand', body: params, options });
  }
}

export class CheckoutLinks {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** POST /checkout-links: a reusable checkout page for any number of buyers; share its `url`. Scope `checkout:write`. */
  create(params: CheckoutLinkCreateParams, options?: RequestOptions): Promise<CheckoutLink> {
    return this.#r.request({ method: 'POST', path: '/checkout-links', body: params, options });
  }

  /** GET /checkout-links: this mode's links with their sales, newest first (`tier` filters). Scope `checkout:write` or `transactions:read`. */
  list(params?: CheckoutLinkListParams, options?: RequestOptions): PagePromise<CheckoutLink> {
    return list(this.#r, '/checkout-links', params, options);
  }

  /** GET /checkout-links/{id}. Scope `checkout:write` or `transactions:read`. */
  get(id: string, options?: RequestOptions): Promise<CheckoutLink> {
    return this.#r.request({ method: 'GET', path: `/checkout-links/${segment(id, 'id')}`, options });
  }

  /** PATCH /checkout-links/{id}: disable, re-date, re-cap or change tiers. Scope `checkout:write`. */
  update(id: string, params: CheckoutLinkUpdateParams, options?: RequestOptions): Promise<CheckoutLink> {
    return this.#r.request({ method: 'PATCH', path: `/checkout-links/${segment(id, 'id')}`, body: params, options });
  }
}
