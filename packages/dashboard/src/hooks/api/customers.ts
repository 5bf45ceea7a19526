import { useQuery } from '@tanstack/react-query';
import type { CustomerSearchParams, SubscriptionListParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey, usePagedList, type PageRequest } from './list.ts';
import { mutation } from './mutation.ts';

/** Customers, subscriptions and memberships (`/api/v1/customers`, `/subscriptions`, `/memberships`). */
export const customerKeys = {
  lists: listKey('customers'),
  detail: (id: string) => ['customer', id] as const,
  subscriptions: listKey('subscriptions'),
};

export const fetchCustomers = (query: CustomerSearchParams) => (page: PageRequest) => client.customers.list({ ...query, ...page });

export const useCustomers = (query: CustomerSearchParams) => usePagedList([...customerKeys.lists, query], fetchCustomers(query));

export const useCustomer = (id: string) => useQuery({ queryKey: customerKeys.detail(id), queryFn: () => client.customers.get(id) });

export const fetchSubscriptions = (query: SubscriptionListParams) => (page: PageRequest) => client.subscriptions.list({ ...query, ...page });

export const useSubscriptions = (query: SubscriptionListParams) => usePagedList([...customerKeys.subscriptions, query], fetchSubscriptions(query));

/** Cancels a membership now or at the end of its paid period (`POST /memberships/{id}/cancel`). */
export const useCancelMembership = mutation(({ membershipId, atPeriodEnd }: { membershipId: string; atPeriodEnd: boolean }) => client.memberships.cancel(membershipId, { atPeriodEnd }));

/** Takes back a cancellation at period end (`POST /memberships/{id}/resume`). */
export const useResumeMembership = mutation((membershipId: string) => client.memberships.resume(membershipId));
