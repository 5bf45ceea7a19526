import { useQueryClient } from '@tanstack/react-query';
import { Plug } from 'lucide-react';
import { errorMessage } from '@/api';
import { appsKey, useConnectedApps, useDisconnectApp } from '@/hooks/api/apps';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Confirm } from '@/components/confirm';
import { EmptyState, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';

/**
 * Developer settings → Apps: the third-party apps and AI assistants a creator connected over
 * OAuth (docs/oauth-mcp.md), with what each may do, and Disconnect, which cuts the app off from
 * its very next request on every server.
 */
export function Apps() {
  const queryClient = useQueryClient();
  const apps = useConnectedApps();
  const disconnect = useDisconnectApp({
    onSuccess: (_, app) => {
      toast({ title: 'App disconnected', description: `${app.name} can no longer reach your account.` });
      return queryClient.invalidateQueries({ queryKey: appsKey });
    },
    onError: (err) => toast({ title: 'Could not disconnect the app', description: errorMessage(err), variant: 'destructive' }),
  });

  return (
    <div>
      <PageHeader
        title="Connected apps"
        description="Apps and AI assistants you allowed to act in your account. Each can do only what you ticked when you connected it, in the mode you chose."
      />
      <ListView
        framed
        list={{ items: apps.data?.items ?? [], isLoading: apps.isPending, error: apps.error }}
        rowKey={(app) => app.id}
        rowProps={(app) => ({ 'data-testid': `app-${app.id}` })}
        empty={<EmptyState title="No apps connected">
          Point an MCP client (Claude, ChatGPT, an IDE) at <code className="whitespace-nowrap">/api/mcp</code> on this server; it asks you here to approve it. Connecting apps needs the Plus plan.
        </EmptyState>}
        columns={[
          { header: 'App', cell: (app) => <>
            <span className="flex items-center gap-2 font-medium"><Plug className="size-4 text-muted-foreground" aria-hidden />{app.name}</span>
            {app.redirectHost && <span className="block text-xs text-muted-foreground">Returns to {app.redirectHost}</span>}
            <span className="block text-xs text-muted-foreground">Connected {formatDate(app.connectedAt)}</span>
          </> },
          { header: 'Permissions', className: 'whitespace-normal', cell: (app) => (
            <div className="flex max-w-72 min-w-40 flex-wrap gap-1">
              {app.scopes.map((s) => <Badge key={s} variant="outline" className="font-mono">{s}</Badge>)}
            </div>
          ) },
          { header: 'Mode', cell: (app) => <Badge variant={app.mode === 'test' ? 'warning' : 'secondary'}>{app.mode}</Badge> },
          { header: 'Last used', cell: (app) => (app.lastUsedAt ? formatDate(app.lastUsedAt) : 'Never') },
          { header: <span className="sr-only">Actions</span>, className: 'text-right', cell: (app) => (
            <Confirm
              trigger={<Button variant="outline" size="sm" className="text-destructive">Disconnect</Button>}
              title={`Disconnect ${app.name}?`}
              description="Its access and refresh tokens stop working at once, on every server. The app can ask to connect again; you will be asked again."
              action="Disconnect"
              onConfirm={() => disconnect.mutate(app)}
            />
          ) },
        ]}
      />
    </div>
  );
}
