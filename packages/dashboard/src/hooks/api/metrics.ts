import { useQuery } from '@tanstack/react-query';
import { client, dashboardApi } from '@/api';

/** The home's numbers (`GET /api/v1/metrics/summary`) and its setup checklist (`GET /dashboard/api/setup`). */
export const metricsKey = ['metrics-summary'] as const;

export const useMetricsSummary = () => useQuery({ queryKey: metricsKey, queryFn: () => client.metrics.summary() });

/** Each step as stored, so the checklist ticks itself. */
export const useSetupState = () => useQuery({ queryKey: ['setup'], queryFn: () => dashboardApi.setup() });
