import type { PagePromise } from '../pagination.ts';
import type { Requester, RequestOptions } from '../request.ts';
import type {
  CreatedWebhookEndpoint, DeliveryListParams, ListParams, RolledSigningSecret, WebhookDelivery, WebhookSecretRollParams, WebhookDeliveryDetail, WebhookEndpoint,
  WebhookEndpointCreateParams, WebhookEndpointDeleted, WebhookEndpointUpdateParams, WebhookEvent, WebhookTestParams, WebhookTestResult,
} from '../types.ts';
import { verifyWebhook, type HeadersLike, type RawBody, type VerifyOptions } from '../webhooks.ts';
import { list, segment } from './resource.ts';

export class WebhookDeliveries {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /** GET /webhooks/deliveries, filtered by `status`, `endpointID`, `eventType`, `resourceID` and `eventID`. Scope `webhooks:write`. */
  list(params?: DeliveryListParams, options?: RequestOptions): PagePromise<WebhookDelivery> {
    return list(this.#r, '/webhooks/deliveries', params, options);
  }

  /** GET /webhooks/deliveries/{id}: one delivery with every attempt. Scope `webhooks:write`. */
  get(id: string, options?: RequestOptions): Promise<WebhookDeliveryDetail> {
    return this.#r.request({ method: 'GET', path: `/webhooks/deliveries/${segment(id, 'id')}`, options });
  }

  /** POST /webhooks/deliveries/{id}/resend: one more attempt now. Scope `webhooks:write`. */
  resend(id: string, options?: RequestOptions): Promise<WebhookDeliveryDetail> {
    return this.#r.request({ method: 'POST', path: `/webhooks/deliveries/${segment(id, 'id')}/resend`, options });
  }
}

export class Webhooks {
  readonly #r: Requester;
  readonly deliveries: WebhookDeliveries;
  constructor(requester: Requester) {
    this.#r = requester;
    this.deliveries = new WebhookDeliveries(requester);
  }

  /** GET /webhooks: the endpoints of the key's mode. Scope `webhooks:write`. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<WebhookEndpoint> {
    return list(this.#r, '/webhooks', params, options);
  }

  /** POST /webhooks: registers an endpoint; the answer's `signingSecret` is shown only this once. Scope `webhooks:write`. */
  create(params: WebhookEndpointCreateParams, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return this.#r.request({ method: 'POST', path: '/webhooks', body: params, options });
  }

  /** GET /webhooks/{id}. Scope `webhooks:write`. */
  get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#r.request({ method: 'GET', path: `/webhooks/${segment(id, 'id')}`, options });
  }

  /** PATCH /webhooks/{id}: url, events, status or description. Scope `webhooks:write`. */
  update(id: string, params: WebhookEndpointUpdateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#r.request({ method: 'PATCH', path: `/webhooks/${segment(id, 'id')}`, body: params, options });
  }

  /** DELETE /webhooks/{id}. Scope `webhooks:write`. */
  delete(id: string, options?: RequestOptions): Promise<WebhookEndpointDeleted> {
    return this.#r.request({ method: 'DELETE', path: `/webhooks/${segment(id, 'id')}`, options });
  }

  /**
   * POST /webhooks/{id}/secret/roll: a new signing secret (shown only in this answer). For
   * `overlapSeconds` (default 24 h, at most 7 days, 0 = now) the old secret signs
   * `webhook-signature` too; verify with `[newSecret, oldSecret]` until `previousSecretExpiresAt`.
   * Scope `webhooks:write`.
   */
  rollSecret(id: string, params: WebhookSecretRollParams = {}, options?: RequestOptions): Promise<RolledSigningSecret> {
    return this.#r.request({ method: 'POST', path: `/webhooks/${segment(id, 'id')}/secret/roll`, body: params, options });
  }

  /** POST /webhooks/test: a sample event of `eventType` through the real pipeline. Scope `webhooks:write`. */
  test(params: WebhookTestParams, options?: RequestOptions): Promise<WebhookTestResult> {
    return this.#r.request({ method: 'POST', path: '/webhooks/test', body: params, options });
  }

  /** Checks a delivery's signatures and returns its typed event; the same as `verifyWebhook`. */
  verify(rawBody: RawBody, headers: HeadersLike, secret: string | readonly string[], options?: VerifyOptions): Promise<WebhookEvent> {
    return verifyWebhook(rawBody, headers, secret, options);
  }
}
