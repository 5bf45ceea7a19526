import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, dashboardApi } from '@/api';
import { mutation } from './mutation.ts';

/** The brand's API keys in the session's mode (`/dashboard/api/keys`: made, rolled and revoked only here). */
export const keysKey = ['keys'] as const;

export const useApiKeys = () => useQuery({ queryKey: keysKey, queryFn: () => dashboardApi.keys.list() });

/** The session's own scopes (`GET /api/v1/ping`): a key can be given only what its maker has. */
export const usePing = () => useQuery({ queryKey: ['ping'], queryFn: () => client.ping(), staleTime: Infinity });

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; scopes: string[] }) => dashboardApi.keys.create(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: keysKey }),
  });
}

export function useRollApiKey(keyId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (graceSeconds: number) => dashboardApi.keys.roll(keyId, { graceSeconds }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keysKey }),
  });
}

export const useRevokeApiKey = mutation(dashboardApi.keys.revoke);
