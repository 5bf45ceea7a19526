import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HubCreateParams, HubUpdateParams, MemberListParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey, usePagedList, type PageRequest } from './list.ts';
import { mutation } from './mutation.ts';

/** Hubs (`/api/v1/hubs`) and their members. */
export const hubKeys = {
  lists: listKey('hubs'),
  /** The first 100, for pickers and for naming a row's hub. */
  choices: listKey('hubs', 'first-100'),
  detail: (id: string) => ['hub', id] as const,
  members: (hubId: string) => listKey('hub-members', hubId),
};

export const useHubs = () => usePagedList(hubKeys.lists, (page) => client.hubs.list(page));

export const useHubChoices = (options: { retry?: boolean } = {}) =>
  useQuery({ queryKey: hubKeys.choices, queryFn: async () => client.hubs.list({ limit: 100 }), ...options });

export const useHub = (id: string | null | undefined) =>
  useQuery({ queryKey: hubKeys.detail(id ?? ''), queryFn: () => client.hubs.get(id ?? ''), enabled: !!id });

export const fetchHubMembers = (hubId: string, query: MemberListParams) =>
  (page: PageRequest) => client.hubs.members.list(hubId, { ...query, ...page });

export const useHubMembers = (hubId: string, query: MemberListParams) =>
  usePagedList([...hubKeys.members(hubId), query], fetchHubMembers(hubId, query));

export function useCreateHub() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: HubCreateParams) => client.hubs.create(body),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: hubKeys.lists }); },
  });
}

export function useUpdateHub(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: HubUpdateParams) => client.hubs.update(id, body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: hubKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: hubKeys.lists });
    },
  });
}

/** Ends a member's access now (`DELETE /hubs/{hubID}/members/{id}`). */
export const useRemoveHubMember = mutation(({ hubId, membershipId }: { hubId: string; membershipId: string }) => client.hubs.members.remove(hubId, membershipId));
