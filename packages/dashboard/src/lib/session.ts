import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { dashboardApi, setCsrfToken, type Mode, type Session } from '@/api';

export const sessionKey = ['session'] as const;

async function readSession(): Promise<Session> {
  const session = await dashboardApi.session.get();
  setCsrfToken(session.csrfToken);
  return session;
}

/**
 * Asks for the session as the app starts, before any page renders. index.html preloads the same
 * URL so the answer travels beside the scripts; a preloaded answer is kept until a request takes
 * it, so it must be taken now: taken later (after a sign-up, say) it would be the stale one.
 */
export function prefetchSession(queryClient: QueryClient) {
  return queryClient.prefetchQuery({ queryKey: sessionKey, queryFn: readSession, retry: false });
}

/** The signed-in user, brand, role and mode; a 401 (ApiError) when nobody is signed in. */
export function useSession() {
  return useQuery({ queryKey: sessionKey, queryFn: readSession, retry: false, staleTime: 60_000 });
}

/** The session of a page inside the app layout, which renders only once the session is loaded. */
export function useCurrentSession(): Session {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentSession outside the signed-in layout');
  return data;
}

/**
 * Every query but the session's depends on the brand and mode: after a switch, drop them all so
 * nothing from the other brand or mode stays on screen.
 */
export function resetBrandData(queryClient: QueryClient) {
  return queryClient.resetQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
}

/** Stores a session answer (sign-in, sign-up, switch) and its CSRF token. */
export function storeSession(queryClient: QueryClient, session: Session) {
  setCsrfToken(session.csrfToken);
  queryClient.setQueryData(sessionKey, session);
}

/** Switches the brand or the test/live mode, stored server-side (`PATCH /dashboard/api/session`). */
export function useSwitchSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { brandId?: string; mode?: Mode }) => dashboardApi.session.update(change),
    onSuccess: async (session) => {
      storeSession(queryClient, session);
      await resetBrandData(queryClient);
    },
  });
}

/** Reads the session again (after sign-in or sign-up) and clears whatever the previous one cached. */
export async function reloadSession(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
  const session = await readSession();
  queryClient.setQueryData(sessionKey, session);
  return session;
}
