import { useQuery } from '@tanstack/react-query';
import { client } from '@/api';
import { listKey, usePagedList, type PageRequest } from './list.ts';

/** Payouts (`/api/v1/payouts`): settled periods of payments, less fees, refunds and commissions. */
export const payoutKeys = { lists: listKey('payouts'), detail: (id: string) => ['payout', id] as const };

export const fetchPayouts = (page: PageRequest) => client.payouts.list(page);

export const usePayouts = () => usePagedList(payoutKeys.lists, fetchPayouts);

export const usePayout = (id: string) => useQuery({ queryKey: payoutKeys.detail(id), queryFn: () => client.payouts.get(id) });
