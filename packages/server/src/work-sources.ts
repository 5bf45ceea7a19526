import { allBrandIds } from './brands/repository.ts';
import type { Deps } from './deps.ts';
import { importWorkSource } from './imports/jobs.ts';
import { idempotencyPurgeSource } from './idempotency/purge-source.ts';
import type { WorkSource } from './worker/loop.ts';
import { deliverySource } from './webhooks/delivery-source.ts';
import { retentionSource } from './events/retention.ts';
import { wireEventSubscribers } from './subscribers.ts';
import { lifecycleSources } from './subscriptions/jobs.ts';
import { accountsPurgeSource } from './users/jobs.ts';
import { oauthPurgeSource } from './oauth/jobs.ts';
import { reconcileSource } from './checkout/jobs.ts';
import { mailSource } from './mail/jobs.ts';

/** Every kind of queued work this service has; each domain adds its source here. */
export function workSources(deps: Deps): WorkSource[] {
  wireEventSubscribers();
  return [
    importWorkSource(deps.db, deps.log, { batchSize: deps.config.importBatchSize }),
    deliverySource(deps),
    ...lifecycleSources(deps),
    retentionSource({ db: deps.db, log: deps.log, settings: deps.config.webhooks }),
    idempotencyPurgeSource({ db: deps.db, log: deps.log, brandIds: allBrandIds }),
    accountsPurgeSource({ db: deps.db, log: deps.log }),
    oauthPurgeSource({ db: deps.db, log: deps.log }),
    reconcileSource({ db: deps.db, log: deps.log, payments: deps.payments }),
    mailSource(deps),
  ];
}
