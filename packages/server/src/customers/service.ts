import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { listMail } from '../mail/repository.ts';
import { renderSummary as renderMail } from '../mail/service.ts';
import { membershipsOfPerson } from '../memberships/repository.ts';
import { renderMemberships } from '../memberships/service.ts';
import { toMajor } from '../money.ts';
import { subscriptionsOfPerson } from '../subscriptions/list.ts';
import { transactionsOfPerson } from '../transactions/repository.ts';
import { renderTransaction, type FeeSettings } from '../transactions/service.ts';
import { findPerson, listCustomers as listRows, type CustomerRow } from './repository.ts';
import type { Customer, CustomerDetail, CustomerListQuery } from './schemas.ts';

export function renderCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.active_memberships > 0 || row.active_subscriptions > 0 ? 'active' : 'ended',
    firstSeenAt: row.created_at.toISOString(),
    lastActivityAt: row.last_activity_at.toISOString(),
    lifetimeValue: row.lifetime_value.map((v) => {
      const paid = Number(v.paid), refunded = Number(v.refunded);
      return { currency: v.currency, paid: toMajor(paid, v.currency), refunded: toMajor(refunded, v.currency), amount: toMajor(paid - refunded, v.currency) };
    }),
    counts: {
      purchases: row.purchases,
      memberships: row.memberships,
      activeMemberships: row.active_memberships,
      activeSubscriptions: row.active_subscriptions,
    },
    productIDs: [...row.product_ids].sort(),
    hubIDs: [...row.hub_ids].sort(),
    ...(typeof row.receive_emails === 'boolean' ? { receiveEmails: row.receive_emails } : {}),
  };
}

/** GET /customers: one page, newest first by first seen. */
export async function listCustomers(db: Queryable, principal: Principal, query: CustomerListQuery) {
  const page = pageRequest('customers', query);
  const { q, product, hub, status, consent } = query;
  const rows = await listRows(db, principal.brandId, principal.mode, { q, product, hub, status, consent }, page);
  return toPage('customers', page, rows, renderCustomer);
}

const transactionsShown = 100;
const emailsShown = 50;

/** GET /customers/{id}: the customer with everything they bought, hold and were sent. 404 for an id of another brand or mode. */
export async function getCustomer(db: Queryable, principal: Principal, id: string, fees?: FeeSettings): Promise<CustomerDetail> {
  const { brandId, mode } = principal;
  const person = /^cus_[0-9a-f]{32}$/.test(id) ? await findPerson(db, brandId, mode, id) : undefined;
  if (!person) throw notFound('customer');
  const [[row], memberships, subscriptions, transactions, emails] = await Promise.all([
    listRows(db, brandId, mode, { person }, { limit: 1 }),
    membershipsOfPerson(db, brandId, mode, person),
    subscriptionsOfPerson(db, principal, person),
    transactionsOfPerson(db, brandId, mode, person, transactionsShown),
    listMail(db, brandId, mode, { limit: emailsShown }, { to: person }),
  ]);
  const render = await renderMemberships(db, brandId, memberships);
  return {
    ...renderCustomer(row),
    memberships: memberships.map((m) => ({ ...render(m), ...(m.product_id ? { productID: m.product_id } : {}) })),
    subscriptions,
    transactions: transactions.map((t) => renderTransaction(t, fees)),
    emails: emails.slice(0, emailsShown).map(renderMail),
  };
}
