import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write, writeFlow } from '../http/idempotency.ts';
import { Membership } from '../memberships/schemas.ts';
import { CancelBody, SubscriptionListQuery, SubscriptionSummary } from './schemas.ts';
import { listSubscriptions } from './list.ts';
import { endMembershipWithProvider } from './flows.ts';
import { resumeMembership } from './service.ts';
import * as contract from './contract.ts';

/** Our additions for ending memberships (docs/subscriptions.md): cancel (now or at period end) and remove a hub member. */
export function subscriptionRoutes(app: App, { db, payments }: { db: Db; payments: PaymentProviders }) {
  app.get('/subscriptions', {
    schema: {
      summary: 'List subscriptions',
      description: 'Our addition (docs/subscriptions.md). The subscriptions of the key\'s mode, newest first, each with its customer, '
        + 'next renewal and monthly recurring revenue. Filters, all optional and combined: `status` (the `state`: active, past_due, '
        + 'cancelling, ended), `product`, `hub`, `tier` and `customer`. Cancel or resume one through its `membershipID`.',
      tags: ['Subscriptions'],
      querystring: SubscriptionListQuery,
      response: { 200: Envelope(ListOf(SubscriptionSummary)) },
    },
    config: { operation: contract.listSubscriptions, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Subscriptions retrieved', await listSubscriptions(db, principalOf(req), req.query)));

  app.post('/memberships/:id/cancel', {
    schema: {
      summary: 'Cancel a membership',
      description: 'Our addition. `atPeriodEnd: true`: the subscription stops renewing and stays `active` with `cancelAtPeriodEnd` '
        + 'until the paid period ends; then it is `cancelled`, the membership `expired`, and `subscription.expired` then `member.removed` '
        + 'are sent. `atPeriodEnd: false`: the membership is `removed` now, its subscription `cancelled`, `member.removed` is sent; no refund. '
        + 'A membership without a renewing subscription can only be cancelled now (409 otherwise). Answers the Membership record.',
      tags: ['Hub members'],
      params: Type.Object({ id: Type.String({ description: 'The membership id (a hub member or a product\'s customer).' }) }),
      body: CancelBody,
      response: { 200: Envelope(Membership) },
    },
    config: { operation: contract.cancelMembership, auth: { scope: 'customers:write' } },
  }, async (req, reply) => writeFlow(db, req, reply,
    () => endMembershipWithProvider(db, payments, principalOf(req), { membershipId: req.params.id, atPeriodEnd: req.body.atPeriodEnd }), 'Membership cancelled'));

  app.post('/memberships/:id/resume', {
    schema: {
      summary: 'Keep a membership cancelled at period end',
      description: 'Our addition. Undoes `POST /memberships/{id}/cancel` with `atPeriodEnd: true` before the period ends: the subscription '
        + 'renews again (`cancelAtPeriodEnd` false). A membership that is not set to end changes nothing; one that has ended, or whose '
        + 'subscription the payment provider bills itself (Stripe, already told to stop), answers 409. The buyer portal\'s "Keep my '
        + 'membership" is this call. Answers the Membership record.',
      tags: ['Hub members'],
      params: Type.Object({ id: Type.String({ description: 'The membership id (a hub member or a product\'s customer).' }) }),
      response: { 200: Envelope(Membership) },
    },
    config: { operation: contract.resumeMembership, auth: { scope: 'customers:write' } },
  }, async (req, reply) => write(db, req, reply, (tx) => resumeMembership(tx, principalOf(req), req.params.id), 'Membership kept'));

  app.delete('/hubs/:hubID/members/:id', {
    schema: {
      summary: 'Remove a hub member',
      description: 'Our addition. The member\'s status becomes `removed` at once and `member.removed` is sent; a subscription paying for '
        + 'the membership is `cancelled` (no refund). Removed members stay in the hub\'s member list with their status. Removing a '
        + 'member who is no longer active changes nothing. Answers the Membership record.',
      tags: ['Hub members'],
      params: Type.Object({ hubID: Type.String(), id: Type.String({ description: 'The membership id.' }) }),
      response: { 200: Envelope(Membership) },
    },
    config: { operation: contract.removeHubMember, auth: { scope: 'customers:write' } },
  }, async (req, reply) => writeFlow(db, req, reply,
    () => endMembershipWithProvider(db, payments, principalOf(req), { membershipId: req.params.id, atPeriodEnd: false, hubId: req.params.hubID }), 'Hub member removed'));
}
