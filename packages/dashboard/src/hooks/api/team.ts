import { useQuery } from '@tanstack/react-query';
import { dashboardApi } from '@/api';
import { mutation } from './mutation.ts';

/** The brand's team and invitations (`/dashboard/api/team`, `/dashboard/api/invites`). */
export const teamKey = ['team'] as const;

export const useTeam = () => useQuery({ queryKey: teamKey, queryFn: () => dashboardApi.team.list() });

export const useRemoveTeamMember = mutation(dashboardApi.team.remove);

export const useInvite = mutation(dashboardApi.team.invite);
