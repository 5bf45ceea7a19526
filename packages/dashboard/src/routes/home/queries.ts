import { useQuery } from '@tanstack/react-query';
import type { MetricsSummary } from '@creator-commerce/sdk';
import { api, dash, v1 } from '@/api';

/** The home's setup checklist (GET /dashboard/api/setup): each step as stored, so it ticks itself. */
export interface SetupState {
  productCreated: boolean;
  linkShared: boolean;
  testPurchase: boolean;
  profileSet: boolean;
  paymentsConnected: boolean;
  live: boolean;
  teamInvited: boolean;
}

export const useMetricsSummary = () => useQuery({ queryKey: ['metrics-summary'], queryFn: () => api.get<MetricsSummary>(v1('/metrics/summary')) });
export const useSetupState = () => useQuery({ queryKey: ['setup'], queryFn: () => api.get<SetupState>(dash('/setup')) });
