import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plug } from 'lucide-react';
import { api, dash, errorMessage, type ConnectedApp } from '@/api';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Confirm } from '@/components/confirm';
import { EmptyState, LoadError, Loading, PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';

const appsKey = ['dashboard', 'apps'];

/**
 * Developer settings → Apps: the third-party apps and AI assistants a creator connected over
 * OAuth (docs/oauth-mcp.md), with what each may do, and Disconnect, which cuts the app off from
 * its very next request on every server.
 */
export function Apps() {
  const queryClient = useQueryClient();
  const apps = useQuery({ queryKey: appsKey, queryFn: () => api.get<{ items: ConnectedApp[] }>(dash('/apps')) });
  const disconnect = useMutation({
    mutationFn: (app: ConnectedApp) => api.del<unknown>(dash(`/apps/${app.id}`)),
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
      {apps.isPending ? <Loading /> : apps.error ? <LoadError error={apps.error} /> : apps.data.items.length === 0 ? (
        <EmptyState title="No apps connected">
          Point an MCP client (Claude, ChatGPT, an IDE) at <code className="whitespace-nowrap">/api/mcp</code> on this server; it asks you here to approve it. Connecting apps needs the Plus plan.
        </EmptyState>
      ) : (
        <div className="rounded-lg border bg-card">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>App</TableHead>
                <TableHead>Permissions</TableHead>
                <TableHead>Mode</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead><span className="sr-only">Actions</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {apps.data.items.map((app) => (
                <TableRow key={app.id} data-testid={`app-${app.id}`}>
                  <TableCell>
                    <span className="flex items-center gap-2 font-medium"><Plug className="size-4 text-muted-foreground" aria-hidden />{app.name}</span>
                    {app.redirectHost && <span className="block text-xs text-muted-foreground">Returns to {app.redirectHost}</span>}
                    <span className="block text-xs text-muted-foreground">Connected {formatDate(app.connectedAt)}</span>
                  </TableCell>
                  <TableCell className="whitespace-normal">
                    <div className="flex max-w-72 min-w-40 flex-wrap gap-1">
                      {app.scopes.map((s) => <Badge key={s} variant="outline" className="font-mono">{s}</Badge>)}
                    </div>
                  </TableCell>
                  <TableCell><Badge variant={app.mode === 'test' ? 'warning' : 'secondary'}>{app.mode}</Badge></TableCell>
                  <TableCell>{app.lastUsedAt ? formatDate(app.lastUsedAt) : 'Never'}</TableCell>
                  <TableCell className="text-right">
                    <Confirm
                      trigger={<Button variant="outline" size="sm" className="text-destructive">Disconnect</Button>}
                      title={`Disconnect ${app.name}?`}
                      description="Its access and refresh tokens stop working at once, on every server. The app can ask to connect again; you will be asked again."
                      action="Disconnect"
                      onConfirm={() => disconnect.mutate(app)}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}
