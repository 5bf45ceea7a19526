import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CheckoutLinkCreateParams, PaymentLinkCreateParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey } from './list.ts';
import { mutation } from './mutation.ts';

/** Checkout links (`/api/v1/checkout-links`, reusable) and payment links (`/api/v1/payment-links`, one buyer). */
export const checkoutLinkKeys = {
  lists: listKey('checkout-links'),
  ofTier: (tierId: string) => listKey('checkout-links', tierId),
};

/** The newest few checkout links of a tier: the share box shows the active one. */
export const useTierCheckoutLinks = (tierId: string) => useQuery({
  queryKey: checkoutLinkKeys.ofTier(tierId),
  enabled: tierId !== '',
  queryFn: async () => client.checkoutLinks.list({ tier: tierId, limit: 5 }),
});

export function useCreateCheckoutLink() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CheckoutLinkCreateParams) => client.checkoutLinks.create(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: checkoutLinkKeys.lists }),
  });
}

/** A payment link for one buyer (or a preview of the checkout with sample answers). */
export const useCreatePaymentLink = mutation((body: PaymentLinkCreateParams) => client.paymentLinks.create(body));
