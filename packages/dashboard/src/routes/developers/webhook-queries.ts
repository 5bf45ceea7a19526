import { useInfiniteQuery } from '@tanstack/react-query';
import type { DeliveryListParams, WebhookDelivery, WebhookEndpoint, Event, EventListParams } from '@creator-commerce/sdk';
import { api, v1, type ListPage } from '@/api';

export const webhooksKey = ['webhooks'] as const;
export const deliveriesKey = ['deliveries'] as const;
export const eventsKey = ['events'] as const;

/** Every endpoint of the brand in the session's mode (brands have a handful: one page of 100). */
export const listEndpoints = () => api.get<ListPage<WebhookEndpoint>>(v1('/webhooks'), { limit: 100 });

/** A keyset-paged list, newest first, fetched page by page as the user asks for more. */
function usePagedList<Item>(key: readonly unknown[], path: string, params: Record<string, string | undefined>) {
  return useInfiniteQuery({
    queryKey: [...key, params],
    queryFn: ({ pageParam }) => api.get<ListPage<Item>>(v1(path), { ...params, limit: 25, cursor: pageParam || undefined }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasMore ? last.nextCursor : undefined),
  });
}

/** `eventID` and `resourceID` are newer filters of the same list (the SDK's generated params follow on regeneration). */
export type DeliveryFilters = Pick<DeliveryListParams, 'status' | 'eventType' | 'endpointID'> & { resourceID?: string; eventID?: string };

export function useDeliveries(filters: DeliveryFilters) {
  return usePagedList<WebhookDelivery>(deliveriesKey, '/webhooks/deliveries', filters);
}

export function useEvents(filters: Pick<EventListParams, 'type' | 'resourceID'>) {
  return usePagedList<Event>(eventsKey, '/events', filters);
}
