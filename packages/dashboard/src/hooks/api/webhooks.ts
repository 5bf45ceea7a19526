import { useMutation, useQuery } from '@tanstack/react-query';
import type { DeliveryListParams, RolledSigningSecret, WebhookDeliveryDetail, WebhookEndpoint, WebhookEndpointDeleted, EventListParams, WebhookEndpointCreateParams, WebhookEndpointUpdateParams, WebhookTestParams } from '@creator-commerce/sdk';
import { client, dashboardApi } from '@/api';
import { usePagedList } from './list.ts';
import { mutation, type AfterWrite } from './mutation.ts';

/** Webhook endpoints, their deliveries, and the events they carry (`/api/v1/webhooks…`, `/api/v1/events`). */
export const webhookKeys = {
  /** The endpoint list; an endpoint's own query sits under it. */
  endpoints: ['webhooks'] as const,
  endpoint: (id: string) => ['webhooks', id] as const,
  deliveries: ['deliveries'] as const,
  delivery: (id: string) => ['deliveries', 'detail', id] as const,
  events: ['events'] as const,
  event: (id: string) => ['events', 'detail', id] as const,
};

/** Every endpoint of the brand in the session's mode (brands have a handful: one page of 100). */
export const useWebhookEndpoints = (options: { enabled?: boolean } = {}) =>
  useQuery({ queryKey: webhookKeys.endpoints, queryFn: async () => client.webhooks.list({ limit: 100 }), ...options });

export const useWebhookEndpoint = (id: string) => useQuery({ queryKey: webhookKeys.endpoint(id), queryFn: () => client.webhooks.get(id) });

/** Writes to endpoints: the page says what follows (toasts, and the keys above to refresh). */
export const useCreateWebhookEndpoint = mutation((body: WebhookEndpointCreateParams) => client.webhooks.create(body));
export const useUpdateWebhookEndpoint = (id: string, options: AfterWrite<WebhookEndpoint, WebhookEndpointUpdateParams> = {}) =>
  useMutation({ ...options, mutationFn: (change: WebhookEndpointUpdateParams) => client.webhooks.update(id, change) });
export const useDeleteWebhookEndpoint = (id: string, options: AfterWrite<WebhookEndpointDeleted, void> = {}) =>
  useMutation({ ...options, mutationFn: () => client.webhooks.delete(id) });

/** Shows the signing secret (`GET /dashboard/api/webhooks/{id}/secret`): asked for, never listed. */
export const useRevealWebhookSecret = (id: string) => mutation(() => dashboardApi.webhookSecret(id))();

export const useRollWebhookSecret = (id: string, options: AfterWrite<RolledSigningSecret, number> = {}) =>
  useMutation({ ...options, mutationFn: (overlapSeconds: number) => client.webhooks.rollSecret(id, { overlapSeconds }) });

/** Sends a test event; the deliveries and events it makes show in the logs. */
export const useSendTestEvent = mutation((body: WebhookTestParams) => client.webhooks.test(body));

/** The delivery log, newest first, 25 a page. */
export const useDeliveries = (filters: DeliveryListParams) =>
  usePagedList([...webhookKeys.deliveries, filters], (page) => client.webhooks.deliveries.list({ ...filters, ...page }), { pageSize: 25 });

/** One delivery with its attempts; a pending one is followed until it settles. */
export const useDelivery = (id: string) => useQuery({
  queryKey: webhookKeys.delivery(id),
  queryFn: () => client.webhooks.deliveries.get(id),
  refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1000 : false),
});

export const useResendDelivery = (id: string, options: AfterWrite<WebhookDeliveryDetail, void> = {}) =>
  useMutation({ ...options, mutationFn: () => client.webhooks.deliveries.resend(id) });

/** Events, newest first, 25 a page. */
export const useEvents = (filters: EventListParams) =>
  usePagedList([...webhookKeys.events, filters], (page) => client.events.list({ ...filters, ...page }), { pageSize: 25 });

export const useEvent = (id: string) => useQuery({ queryKey: webhookKeys.event(id), queryFn: () => client.events.get(id) });

/** What one thing (a txref) caused: its first 100 events and their first 100 deliveries. */
export const useResourceEvents = (resourceID: string) =>
  useQuery({ queryKey: ['transaction', resourceID, 'events'], queryFn: async () => client.events.list({ resourceID, limit: 100 }) });
export const useResourceDeliveries = (resourceID: string) =>
  useQuery({ queryKey: ['transaction', resourceID, 'deliveries'], queryFn: async () => client.webhooks.deliveries.list({ resourceID, limit: 100 }) });
