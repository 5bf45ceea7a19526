import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BrandUpdateParams } from '@creator-commerce/sdk';
import { client } from '@/api';

/** The brand's public profile (`/api/v1/brand`, docs/storefront.md). */
export const brandKey = ['brand'] as const;

export const useBrand = () => useQuery({ queryKey: brandKey, queryFn: () => client.brand.get() });

/** Saves the profile and keeps the answer as the stored one. */
export function useUpdateBrand() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BrandUpdateParams) => client.brand.update(body),
    onSuccess: (brand) => { qc.setQueryData(brandKey, brand); },
  });
}
