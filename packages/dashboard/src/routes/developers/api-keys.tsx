import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, Plus } from 'lucide-react';
import { errorMessage, type ApiKey } from '@/api';
import { keysKey, useApiKeys, useRevokeApiKey } from '@/hooks/api/keys';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Confirm } from '@/components/confirm';
import { EmptyState, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';
import { CreateKeyDialog } from './api-key-create';
import { RollKeyDialog } from './api-key-roll';
import { keyName } from './key-names';


function keyStatus(key: ApiKey): { label: string; variant: 'success' | 'warning' | 'secondary' } {
  if (key.revokedAt) return { label: 'Revoked', variant: 'secondary' };
  if (key.expiresAt && new Date(key.expiresAt) <= new Date()) return { label: 'Expired', variant: 'secondary' };
  if (key.expiresAt) return { label: `Expires ${formatDate(key.expiresAt)}`, variant: 'warning' };
  return { label: 'Active', variant: 'success' };
}

export function ApiKeys() {
  const session = useCurrentSession();
  const queryClient = useQueryClient();
  const keys = useApiKeys();
  const [creating, setCreating] = React.useState(false);
  const [rolling, setRolling] = React.useState<ApiKey | null>(null);
  const revoke = useRevokeApiKey({
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
      <ListView
        framed
        list={{ items: keys.data?.items ?? [], isLoading: keys.isPending, error: keys.error }}
        rowKey={(key) => key.id}
        rowProps={(key) => ({ 'data-testid': `key-${key.id}` })}
        empty={<EmptyState title={`No ${session.mode} keys yet`} action={create}>
          Create a key, give it only the scopes your code needs, and send it in the <code className="whitespace-nowrap">x-service-api</code> header.
        </EmptyState>}
        columns={[
          { header: 'Name', cell: (key) => <>
            <span className="flex items-center gap-2 font-medium"><KeyRound className="size-4 text-muted-foreground" aria-hidden />{keyName(key)}</span>
            <span className="text-xs text-muted-foreground">Created {formatDate(key.createdAt)}</span>
          </> },
          { header: 'Key', cell: (key) => <code className="font-mono text-xs">{key.prefix}…{key.lastFour ?? '····'}</code> },
          { header: 'Scopes', className: 'whitespace-normal', cell: (key) => (
            <div className="flex max-w-72 min-w-40 flex-wrap gap-1">
              {key.scopes.map((s) => <Badge key={s} variant="outline" className="font-mono">{s}</Badge>)}
            </div>
          ) },
          { header: 'Last used', cell: (key) => (key.lastUsedAt ? formatDate(key.lastUsedAt) : 'Never') },
          { header: 'Status', cell: (key) => <Badge variant={keyStatus(key).variant}>{keyStatus(key).label}</Badge> },
          { header: <span className="sr-only">Actions</span>, className: 'text-right', cell: (key) => {
            const status = keyStatus(key);
            const usable = status.label !== 'Revoked' && status.label !== 'Expired';
            return usable && (
              <div className="flex justify-end gap-2">
                <Button variant="outline" size="sm" onClick={() => setRolling(key)}>Roll</Button>
                <Confirm
                  trigger={<Button variant="outline" size="sm" className="text-destructive">Revoke</Button>}
                  title={`Revoke ${keyName(key)}?`}
                  description="Requests with this key fail from now on, on every server, within a second. This cannot be undone; roll the key instead if your code needs time to switch."
                  action="Revoke key"
                  onConfirm={() => revoke.mutate(key.id)}
                />
              </div>
            );
          } },
        ]}
      />
      <CreateKeyDialog open={creating} onOpenChange={setCreating} mode={session.mode} />
      {rolling && <RollKeyDialog apiKey={rolling} onClose={() => setRolling(null)} />}
    </div>
  );
}
