import { principalOf } from '../auth/resolve.ts';
import { findProfile } from '../brands/repository.ts';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { Envelope } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { portalPath } from '../brands/profile.ts';
import { CustomerSession, CustomerSessionBody } from './schemas.ts';
import { createCustomerSession } from './service.ts';
import * as contract from './contract.ts';

/** POST /customer-sessions (docs/portal.md): the brand's developer sends a buyer into the portal. */
export function customerSessionRoutes(app: App, { db, config }: { db: Db; config: { publicUrl: string } }) {
  app.post('/customer-sessions', {
    schema: {
      summary: 'Create a customer portal session',
      description: 'Our addition. A one-time URL into the buyer portal for one of the brand\'s buyers (someone with a purchase or '
        + 'membership in the key\'s mode; 404 otherwise), valid 15 minutes. `deepLink` opens the portal on one of their subscriptions, '
        + 'memberships, transactions (txref) or items; `returnUrl` is where its "Back" link leads. The buyer then sees every purchase '
        + 'and membership with the brand, downloads receipts, invoices and what they bought, and cancels or keeps their subscription.',
      tags: ['Customer portal'],
      body: CustomerSessionBody,
      response: { 200: Envelope(CustomerSession) },
    },
    config: { operation: contract.createCustomerSession, auth: { scope: 'customers:write' } },
  }, async (req, reply) => write(db, req, reply, async (tx) => {
    const principal = principalOf(req);
    const brand = await findProfile(tx, principal.brandId);
    return createCustomerSession(tx, principal, req.body, `${config.publicUrl}${portalPath(brand!)}`);
  }, 'Customer session created'));
}
