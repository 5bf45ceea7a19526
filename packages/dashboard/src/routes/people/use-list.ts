import { useInfiniteQuery } from '@tanstack/react-query';
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
