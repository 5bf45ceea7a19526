import { useInfiniteQuery } from '@tanstack/react-query';
import type { Page } from '@creator-commerce/sdk';

/** What a list hook asks the SDK for: a page size and, after the first page, a cursor. */
export interface PageRequest { limit: number; cursor?: string }

/** One page of a public list, as the SDK's `list()` answers it (a PagePromise is awaited for its first page). */
export type FetchPage<T> = (page: PageRequest) => PromiseLike<Page<T>>;

/** The query key of a public list: invalidating `['list', resource]` refreshes every filter of it. */
export const listKey = (resource: string, ...rest: unknown[]) => ['list', resource, ...rest] as const;

export interface PagedList<T> {
  /** Every page loaded so far. */
  items: T[];
  isLoading: boolean;
  error: unknown;
  hasMore: boolean;
  loadMore: () => void;
  loadingMore: boolean;
  /** Any fetch under way, a refresh included. */
  isFetching: boolean;
  refetch: () => void;
}

/**
 * A public list, page after page (keyset cursors): `items` is every page loaded so far, `loadMore`
 * fetches the next. The key holds the filters, so changing a filter starts the list over.
 */
export function usePagedList<T>(key: readonly unknown[], fetchPage: FetchPage<T>, options: { enabled?: boolean; pageSize?: number } = {}): PagedList<T> {
  const enabled = options.enabled ?? true;
  const q = useInfiniteQuery({
    queryKey: key,
    queryFn: async ({ pageParam }) => fetchPage({ limit: options.pageSize ?? 50, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasMore ? last.nextCursor : undefined),
    enabled,
  });
  return {
    items: q.data?.pages.flatMap((p) => p.items) ?? [],
    isLoading: q.isPending && enabled,
    error: q.error,
    hasMore: q.hasNextPage,
    loadMore: () => { void q.fetchNextPage(); },
    loadingMore: q.isFetchingNextPage,
    isFetching: q.isFetching,
    refetch: () => { void q.refetch(); },
  };
}
