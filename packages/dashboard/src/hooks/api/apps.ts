import { useQuery } from '@tanstack/react-query';
import { dashboardApi, type ConnectedApp } from '@/api';
import { mutation } from './mutation.ts';

/** OAuth apps connected to the brand (`/dashboard/api/apps`, docs/oauth-mcp.md). */
export const appsKey = ['apps'] as const;

export const useConnectedApps = () => useQuery({ queryKey: appsKey, queryFn: () => dashboardApi.apps.list() });

export const useDisconnectApp = mutation((app: ConnectedApp) => dashboardApi.apps.disconnect(app.id));
