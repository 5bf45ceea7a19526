import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import type { FeeSettings } from '../transactions/service.ts';
import { Customer, CustomerDetail, CustomerListQuery, CustomerParams } from './schemas.ts';
import * as contract from './contract.ts';
import * as service from './service.ts';

/** Our additions (docs/customers.md): everyone who bought or joined, one entry per email, and one person's page. */
export function customerRoutes(app: App, { db, config }: { db: Db; config: { payouts: FeeSettings } }) {
  app.get('/customers', {
    schema: {
      summary: 'List customers',
      description: 'Our addition (docs/customers.md). Everyone who holds a membership (of a product or a hub) or made a paid transaction '
        + 'in the key\'s mode, one entry per email (ignoring case), newest first by when they were first seen: lifetime value per currency '
        + '(never added together), counts and marketing consent. Filters, all optional and combined: `q` (part of the name or email), '
        + '`product`, `hub`, `status` and `consent`.',
      tags: ['Customers'],
      querystring: CustomerListQuery,
      response: { 200: Envelope(ListOf(Customer)) },
    },
    config: { operation: contract.listCustomers, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Customers retrieved', await service.listCustomers(db, principalOf(req), req.query)));

  app.get('/customers/:id', {
    schema: {
      summary: 'Get a customer',
      description: 'Our addition (docs/customers.md). The customer with every membership and subscription, their newest 100 transactions '
        + 'and the newest 50 emails sent to them, in the key\'s mode. 404 for an id of another brand or mode.',
      tags: ['Customers'],
      params: CustomerParams,
      response: { 200: Envelope(CustomerDetail) },
    },
    config: { operation: contract.getCustomer, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Customer retrieved', await service.getCustomer(db, principalOf(req), req.params.id, config.payouts)));
}
