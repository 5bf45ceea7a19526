import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CouponCreateParams, CouponUpdateParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey, usePagedList } from './list.ts';

/** Coupons (`/api/v1/coupons`, docs/coupons.md). */
export const couponKeys = {
  lists: listKey('coupons'),
  detail: (id: string) => ['coupon', id] as const,
};

export const useCoupons = () => usePagedList(couponKeys.lists, (page) => client.coupons.list(page));

/** One coupon with its redemptions. */
export const useCoupon = (id: string) => useQuery({ queryKey: couponKeys.detail(id), queryFn: () => client.coupons.get(id) });

export function useCreateCoupon() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CouponCreateParams) => client.coupons.create(body),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: couponKeys.lists }); },
  });
}

/** Refreshes the coupon (awaited, so the page shows what is stored) and the list after a change. */
function useRefreshCoupon(id: string) {
  const qc = useQueryClient();
  return async () => {
    await qc.invalidateQueries({ queryKey: couponKeys.detail(id) });
    void qc.invalidateQueries({ queryKey: couponKeys.lists });
  };
}

export function useUpdateCoupon(id: string) {
  const refresh = useRefreshCoupon(id);
  return useMutation({ mutationFn: (body: CouponUpdateParams) => client.coupons.update(id, body), onSuccess: refresh });
}

/** Archives the coupon: it stops applying, and its redemptions stay. */
export function useArchiveCoupon(id: string) {
  const refresh = useRefreshCoupon(id);
  return useMutation({ mutationFn: () => client.coupons.archive(id), onSuccess: refresh });
}
