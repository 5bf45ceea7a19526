import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type { ImportParams, ImportQueued, MemberListParams, Membership } from '../types.ts';
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
  readonly members: HubMembers;
  constructor(requester: Requester) { this.members = new HubMembers(requester); }
}
