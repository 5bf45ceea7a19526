import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Booking, BookingCancelParams, BookingListParams, BookingRescheduleParams } from '../types.ts';
import { list, segment } from './resource.ts';

/** Paid bookings of bookable (`appointment`) products (docs/bookings.md). */
export class Bookings {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /bookings: newest first, or `upcoming: true` for those not ended yet, soonest first. Scope `customers:read`. */
  list(params?: BookingListParams, options?: RequestOptions): PagePromise<Booking> {
    return list(this.#r, '/bookings', params, options);
  }

  /** GET /bookings/{id}. Scope `customers:read`. */
  get(id: string, options?: RequestOptions): Promise<Booking> {
    return this.#r.request({ method: 'GET', path: `/bookings/${segment(id, 'id')}`, options });
  }

  /**
   * POST /bookings/{id}/cancel: frees the place and sends `booking.cancelled`; refused (409) inside
   * the product's `changeNoticeMinutes`. Does not refund: use `transactions.refund`. Scope `customers:write`.
   */
  cancel(id: string, params: BookingCancelParams = {}, options?: RequestOptions): Promise<Booking> {
    return this.#r.request({ method: 'POST', path: `/bookings/${segment(id, 'id')}/cancel`, body: params, options });
  }

  /** POST /bookings/{id}/reschedule: moves it to another open slot; sends `booking.rescheduled`. Scope `customers:write`. */
  reschedule(id: string, params: BookingRescheduleParams, options?: RequestOptions): Promise<Booking> {
    return this.#r.request({ method: 'POST', path: `/bookings/${segment(id, 'id')}/reschedule`, body: params, options });
  }
}
