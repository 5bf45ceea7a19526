import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Coupon, CouponCreateParams, CouponListParams, CouponUpdateParams, CouponWithRedemptions } from '../types.ts';
import { list, segment } from './resource.ts';

/** Coupons (our addition, docs/coupons.md): codes buyers type at checkout, or `coupon` on a payment link. */
export class Coupons {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** POST /coupons: `percentOff` or `amountsOff`; a code an active coupon holds is a ConflictError. Scope `products:write`. */
  create(params: CouponCreateParams, options?: RequestOptions): Promise<Coupon> {
    return this.#r.request({ method: 'POST', path: '/coupons', body: params, options });
  }

  /** GET /coupons: this mode's coupons with their uses, newest first (`status`, `code` filter). Scope `products:read`. */
  list(params?: CouponListParams, options?: RequestOptions): PagePromise<Coupon> {
    return list(this.#r, '/coupons', params, options);
  }

  /** GET /coupons/{id}: with the revenue its uses brought and the newest uses. Scope `products:read`. */
  get(id: string, options?: RequestOptions): Promise<CouponWithRedemptions> {
    return this.#r.request({ method: 'GET', path: `/coupons/${segment(id, 'id')}`, options });
  }

  /** PATCH /coupons/{id}: name, scope, window, caps, minimums (`null` clears). Scope `products:write`. */
  update(id: string, params: CouponUpdateParams, options?: RequestOptions): Promise<Coupon> {
    return this.#r.request({ method: 'PATCH', path: `/coupons/${segment(id, 'id')}`, body: params, options });
  }

  /** DELETE /coupons/{id}: archives it (no new uses; nothing is deleted). Scope `products:write`. */
  archive(id: string, options?: RequestOptions): Promise<Coupon> {
    return this.#r.request({ method: 'DELETE', path: `/coupons/${segment(id, 'id')}`, options });
  }
}
