import type { Requester, RequestOptions } from '../request.ts';
import type { MetricsSummary } from '../types.ts';

export class Metrics {
  readonly #r: Requester;
  constructor(requester: Requester) { this.#r = requester; }

  /**
   * GET /metrics/summary: revenue today, in the last 7 and 30 days per currency (refunds
   * subtracted; currencies are never added together), MRR, subscriptions, new members, recent
   * sales and failed renewals of the key's mode. Scope `transactions:read`.
   */
  summary(options?: RequestOptions): Promise<MetricsSummary> {
    return this.#r.request({ method: 'GET', path: '/metrics/summary', options });
  }
}
