import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { Hub, HubCreateParams, HubSummary, HubUpdateParams, ImportParams, ImportQueued, ListParams, MemberListParams, Membership } from '../types.ts';
import { list, segment } from './resource.ts';

export class HubMembers {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /hubs/{hubID}/members: members of every status (or the `status` given; `email` finds one person), newest first. Scope `customers:read`. */
  list(hubId: string, params?: MemberListParams, options?: RequestOptions): PagePromise<Membership> {
    return list(this.#r, `/hubs/${segment(hubId, 'hubId')}/members`, params, options);
  }

  /** GET /hubs/{hubID}/members/{id}: one membership. Scope `customers:read`. */
  get(hubId: string, membershipId: string, options?: RequestOptions): Promise<Membership> {
    return this.#r.request({ method: 'GET', path: `/hubs/${segment(hubId, 'hubId')}/members/${segment(membershipId, 'membershipId')}`, options });
  }

  /** DELETE /hubs/{hubID}/members/{id}: removes the member now (a subscription paying for it is cancelled). Scope `customers:write`. */
  remove(hubId: string, membershipId: string, options?: RequestOptions): Promise<Membership> {
    return this.#r.request({ method: 'DELETE', path: `/hubs/${segment(hubId, 'hubId')}/members/${segment(membershipId, 'membershipId')}`, options });
  }

  /** POST /hubs/{hubID}/members/import: queues members for import (answered 202). Scope `customers:write`. */
  import(hubId: string, params: ImportParams, options?: RequestOptions): Promise<ImportQueued> {
    return this.#r.request({ method: 'POST', path: `/hubs/${segment(hubId, 'hubId')}/members/import`, body: params, options });
  }
}

export class Hubs {
  readonly #r: Requester;
  readonly members: HubMembers;
  constructor(requester: Requester) {
    this.#r = requester;
    this.members = new HubMembers(requester);
  }

  /** GET /hubs: the brand's hubs, newest first, without their tiers. Scope `products:read`. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<HubSummary> {
    return list(this.#r, '/hubs', params, options);
  }

  /** GET /hubs/{id}: one hub with its membership tiers. Scope `products:read`. */
  get(id: string, options?: RequestOptions): Promise<Hub> {
    return this.#r.request({ method: 'GET', path: `/hubs/${segment(id, 'id')}`, options });
  }

  /** POST /hubs: a hub with its membership tiers. Scope `products:write`. */
  create(params: HubCreateParams, options?: RequestOptions): Promise<Hub> {
    return this.#r.request({ method: 'POST', path: '/hubs', body: params, options });
  }

  /**
   * PATCH /hubs/{id}: changes the fields sent; `tiers`, when sent, is the whole list (left-out
   * tiers are deleted, or archived if anyone ever joined on them). Scope `products:write`.
   */
  update(id: string, params: HubUpdateParams, options?: RequestOptions): Promise<Hub> {
    return this.#r.request({ method: 'PATCH', path: `/hubs/${segment(id, 'id')}`, body: params, options });
  }
}
