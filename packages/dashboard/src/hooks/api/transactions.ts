import { useQuery } from '@tanstack/react-query';
import type { FulfilmentParams, RefundParams, TransactionListParams, TransactionTotalsParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey, usePagedList, type PageRequest } from './list.ts';
import { mutation } from './mutation.ts';

/** Transactions (`/api/v1/transactions`): payments, their totals, refunds and fulfilment. */
export const transactionKeys = {
  lists: listKey('transactions'),
  detail: (txref: string) => ['transaction', txref] as const,
};

export const fetchTransactions = (filters: TransactionListParams) => (page: PageRequest) => client.transactions.list({ ...filters, ...page });

export const useTransactions = (filters: TransactionListParams) => usePagedList([...transactionKeys.lists, filters], fetchTransactions(filters));

/** Per currency, what the filters select adds up to. */
export const useTransactionTotals = (filters: TransactionTotalsParams) =>
  useQuery({ queryKey: [...transactionKeys.lists, 'totals', filters], queryFn: () => client.transactions.totals(filters) });

/** Paid orders by fulfilment state, oldest first (the fulfilment queue). */
export const useFulfilmentQueue = (fulfilment: NonNullable<TransactionListParams['fulfilment']>) => useQuery({
  queryKey: [...transactionKeys.lists, 'fulfilment', fulfilment],
  queryFn: async () => client.transactions.list({ status: 'succeeded', fulfilment, order: 'oldest', limit: 100 }),
});

export const useTransaction = (txref: string) => useQuery({ queryKey: transactionKeys.detail(txref), queryFn: () => client.transactions.get(txref) });

export const useRefund = mutation(({ txref, body }: { txref: string; body: RefundParams }) => client.transactions.refund(txref, body));

export const useFulfil = mutation(({ txref, body }: { txref: string; body: FulfilmentParams }) => client.transactions.fulfil(txref, body));
