import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Plus } from 'lucide-react';
import { api, dash, errorMessage, type ApiKey } from '@/api';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Confirm } from '@/components/confirm';
import { EmptyState, LoadError, Loading, PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';
import { CreateKeyDialog } from './api-key-create';
import { RollKeyDialog } from './api-key-roll';
import { keyName, keysKey } from './key-names';



function keyStatus(key: ApiKey): { label: string; variant: 'success' | 'warning' | 'secondary' } {
  if (key.revokedAt) return { label: 'Revoked', variant: 'secondary' };
  if (key.expiresAt && new Date(key.expiresAt) <= new Date()) return { label: 'Expired', variant: 'secondary' };
  if (key.expiresAt) return { label: `Expires ${formatDate(key.expiresAt)}`, variant: 'warning' };
  return { label: 'Active', variant: 'success' };
}

export function ApiKeys() {
  const session = useCurrentSession();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: keysKey, queryFn: () => api.get<{ items: ApiKey[] }>(dash('/keys')) });
  const [creating, setCreating] = React.useState(false);
  const [rolling, setRolling] = React.useState<ApiKey | null>(null);
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => api.post<ApiKey>(dash(`/keys/${key.id}/revoke`)),
    onSuccess: (key) => {
      toast({ title: 'Key revoked', description: `${keyName(key)} no longer works.` });
      return queryClient.invalidateQueries({ queryKey: keysKey });
    },
    onError: (err) => toast({ title: 'Could not revoke the key', description: errorMessage(err), variant: 'destructive' }),
  });

  const create = <Button onClick={() => setCreating(true)}><Plus aria-hidden /> Create key</Button>;
  return (
    <div>
      <PageHeader
        title="API keys"
        description={<>Keys let your own code call the API as this brand. These are your <strong>{session.mode}</strong> keys: they see and change {session.mode} data only. Switch the mode in the header to manage the others.</>}
        actions={create}
      />
      {keys.isPending ? <Loading /> : keys.error ? <LoadError error={keys.error} /> : keys.data.items.length === 0 ? (
        <EmptyState title={`No ${session.mode} keys yet`} action={create}>
          Create a key, give it only the scopes your code needs, and send it in the <code className="whitespace-nowrap">x-service-api</code> header.
        </EmptyState>
      ) : (
        <div className="rounded-lg border bg-card">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Scopes</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>Status</TableHead>
                <TableHead><span className="sr-only">Actions</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {keys.data.items.map((key) => {
                const status = keyStatus(key);
                const usable = status.label !== 'Revoked' && status.label !== 'Expired';
                return (
                  <TableRow key={key.id} data-testid={`key-${key.id}`}>
                    <TableCell>
                      <span className="flex items-center gap-2 font-medium"><KeyRound className="size-4 text-muted-foreground" aria-hidden />{keyName(key)}</span>
                      <span className="text-xs text-muted-foreground">Created {formatDate(key.createdAt)}</span>
                    </TableCell>
                    <TableCell><code className="font-mono text-xs">{key.prefix}…{key.lastFour ?? '····'}</code></TableCell>
                    <TableCell className="whitespace-normal">
                      <div className="flex max-w-72 min-w-40 flex-wrap gap-1">
                        {key.scopes.map((s) => <Badge key={s} variant="outline" className="font-mono">{s}</Badge>)}
                      </div>
                    </TableCell>
                    <TableCell>{key.lastUsedAt ? formatDate(key.lastUsedAt) : 'Never'}</TableCell>
                    <TableCell><Badge variant={status.variant}>{status.label}</Badge></TableCell>
                    <TableCell className="text-right">
                      {usable && (
                        <div className="flex justify-end gap-2">
                          <Button variant="outline" size="sm" onClick={() => setRolling(key)}>Roll</Button>
                          <Confirm
                            trigger={<Button variant="outline" size="sm" className="text-destructive">Revoke</Button>}
                            title={`Revoke ${keyName(key)}?`}
                            description="Requests with this key fail from now on, on every server, within a second. This cannot be undone; roll the key instead if your code needs time to switch."
                            action="Revoke key"
                            onConfirm={() => revoke.mutate(key)}
                          />
                        </div>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
      <CreateKeyDialog open={creating} onOpenChange={setCreating} mode={session.mode} />
      {rolling && <RollKeyDialog apiKey={rolling} onClose={() => setRolling(null)} />}
    </div>
  );
}
