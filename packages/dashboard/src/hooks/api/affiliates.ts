import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AffiliateCreateParams, AffiliateUpdateParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey, usePagedList } from './list.ts';

/** Affiliates (`/api/v1/affiliates`, docs/affiliates.md). */
export const affiliateKeys = {
  lists: listKey('affiliates'),
  detail: (id: string) => ['affiliate', id] as const,
};

export const useAffiliates = () => usePagedList(affiliateKeys.lists, (page) => client.affiliates.list(page));

export const useAffiliate = (id: string) => useQuery({ queryKey: affiliateKeys.detail(id), queryFn: () => client.affiliates.get(id) });

export function useCreateAffiliate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AffiliateCreateParams) => client.affiliates.create(body),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: affiliateKeys.lists }); },
  });
}

/** Saves (or archives: `{ status: 'archived' }`), then reads the affiliate back. */
export function useUpdateAffiliate(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AffiliateUpdateParams) => client.affiliates.update(id, body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: affiliateKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: affiliateKeys.lists });
    },
  });
}
