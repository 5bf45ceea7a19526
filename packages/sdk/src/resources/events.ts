import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Event, EventListParams, Import, ImportGetParams } from '../types.ts';
import { list, segment } from './resource.ts';

export class Events {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /events: every event of the key's mode, newest first, optionally of one `type` and/or about one `resourceID`. Scope `webhooks:write`. */
  list(params?: EventListParams, options?: RequestOptions): PagePromise<Event> {
    return list(this.#r, '/events', params, options);
  }

  /** GET /events/{id}: one event, as its deliveries carry it; its deliveries are `webhooks.deliveries.list({ eventID })`. Scope `webhooks:write`. */
  get(id: string, options?: RequestOptions): Promise<Event> {
    return this.#r.request({ method: 'GET', path: `/events/${segment(id, 'id')}`, options });
  }
}

export class Imports {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /**
   * GET /imports/{id}: the progress of an import (created, reactivated, unchanged, refused). With
   * `{ records: true }`, also what happened to each record. Scope `customers:write`.
   */
  get(id: string, params?: ImportGetParams, options?: RequestOptions): Promise<Import> {
    return this.#r.request({ method: 'GET', path: `/imports/${segment(id, 'id')}`, query: params, options });
  }
}
