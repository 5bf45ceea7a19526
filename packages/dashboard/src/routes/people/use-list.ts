import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type ListPage, type Query } from '@/api';

/**
 * A public `/api/v1` list, page after page (keyset cursors): `items` is every page loaded so far,
 * `loadMore` fetches the next. The query key holds the path and filters, so changing a filter
 * starts the list over, and invalidating `['list', path]` refreshes it after a change.
 */
export function useList<T>(path: string, query: Query = {}, options: { enabled?: boolean; pageSize?: number } = {}) {
  const q = useInfiniteQuery({
    queryKey: ['list', path, query],
    queryFn: ({ pageParam }) => api.get<ListPage<T>>(path, { ...query, limit: options.pageSize ?? 50, cursor: pageParam || undefined }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasMore ? last.nextCursor : undefined),
    enabled: options.enabled ?? true,
  });
  return {
    items: q.data?.pages.flatMap((p) => p.items) ?? [],
    isLoading: q.isPending && (options.enabled ?? true),
    error: q.error,
    hasMore: q.hasNextPage,
    loadMore: () => q.fetchNextPage(),
    loadingMore: q.isFetchingNextPage,
    refetch: q.refetch,
  };
}

/** Product and hub names by id (the first 100 of each), to show what a row is about by name. */
export function useCatalogNames(): Map<string, string> {
  const products = useQuery({
    queryKey: ['list', '/api/v1/products', 'names'],
    queryFn: () => api.get<ListPage<{ id: string; title: string }>>('/api/v1/products', { limit: 100 }),
  });
  const hubs = useQuery({
    queryKey: ['list', '/api/v1/hubs', 'names'],
    queryFn: () => api.get<ListPage<{ id: string; name: string }>>('/api/v1/hubs', { limit: 100 }),
    retry: false,
  });
  return new Map<string, string>([
    ...(products.data?.items ?? []).map((p) => [p.id, p.title] as [string, string]),
    ...(hubs.data?.items ?? []).map((h) => [h.id, h.name] as [string, string]),
  ]);
}
