import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf, sessionPrincipalOf } from '../auth/resolve.ts';
import { Envelope, ok } from '../http/envelope.ts';
import type { FeeSettings } from '../transactions/service.ts';
import { MetricsSummary, SetupState } from './schemas.ts';
import { setupState } from './setup.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

export function metricsRoutes(app: App, { db, config }: { db: Db; config: { payouts: FeeSettings } }) {
  app.get('/metrics/summary', {
    schema: {
      summary: 'Get the home\'s numbers',
      description: 'Our addition (docs/metrics.md). Revenue today, in the last 7 and 30 days per currency (refunds subtracted, currencies '
        + 'never added together), monthly recurring revenue and subscriptions, new members, the newest sales and the renewals that failed, '
        + 'all from this service\'s own records of the key\'s mode. Days are calendar days in the brand\'s time zone (GET /brand).',
      tags: ['Metrics'],
      response: { 200: Envelope(MetricsSummary) },
    },
    config: { operation: contract.getMetricsSummary, auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Metrics retrieved', await service.metricsSummary(db, principalOf(req), { now: new Date(), fees: config.payouts })));
}

/**
 * The home's setup checklist, under /dashboard/api: session only and hidden from the OpenAPI
 * document like the other session routes (it reads both modes and the team, which no key sees).
 */
export function dashboardSetupRoutes(app: App, { db, config }: { db: Db; config: { stripe?: unknown } }) {
  app.get('/setup', {
    schema: { hide: true, response: { 200: Envelope(SetupState) } },
    config: { auth: { scope: null } },
  }, async (req) => ok('Setup retrieved', await setupState(db, sessionPrincipalOf(req), { paymentsConnected: Boolean(config.stripe) })));
}
