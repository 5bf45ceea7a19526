import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpoint } from '@creator-commerce/sdk';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, Pencil } from 'lucide-react';
import { errorMessage } from '@/api';
import { useDeleteWebhookEndpoint, useUpdateWebhookEndpoint, useWebhookEndpoint, webhookKeys } from '@/hooks/api/webhooks';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Confirm } from '@/components/confirm';
import { LoadError, Loading, PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';
import { DeliveryLog } from './delivery-log';
import { EndpointFields, type EndpointValues } from './webhook-form';
import { SigningSecret } from './webhook-secret';
import { TestEventDialog } from './webhook-test-event';

export function WebhookDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const endpoint = useWebhookEndpoint(id);
  const [editing, setEditing] = React.useState(false);
  const update = useUpdateWebhookEndpoint(id, {
    onSuccess: (e) => {
      queryClient.setQueryData(webhookKeys.endpoint(id), e);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints, exact: true });
    },
  });
  const remove = useDeleteWebhookEndpoint(id, {
    onSuccess: () => {
      toast({ title: 'Endpoint deleted', description: 'It receives nothing from now on; its pending deliveries are marked failed.' });
      queryClient.removeQueries({ queryKey: webhookKeys.endpoint(id) });
      navigate('/developers/webhooks');
    },
    onError: (err) => toast({ title: 'Could not delete', description: errorMessage(err), variant: 'destructive' }),
  });

  const back = <Link to="/developers/webhooks" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"><ArrowLeft className="size-4" aria-hidden /> Webhooks</Link>;
  if (endpoint.isPending) return <div>{back}<Loading /></div>;
  if (endpoint.error) return <div>{back}<LoadError error={endpoint.error} /></div>;
  const e = endpoint.data;
  const toggleStatus = () => update.mutate({ status: e.status === 'active' ? 'disabled' : 'active' }, {
    onSuccess: (u) => toast({ title: u.status === 'active' ? 'Endpoint enabled' : 'Endpoint disabled', description: u.status === 'active' ? 'New events are sent to it again.' : 'It receives nothing until you enable it.' }),
    onError: (err) => toast({ title: 'Could not change the status', description: errorMessage(err), variant: 'destructive' }),
  });

  return (
    <div className="flex flex-col gap-6">
      <div>
        {back}
        <PageHeader
          title="Endpoint"
          description={<span className="break-all">{e.url}</span>}
          actions={
            <>
              <TestEventDialog endpoint={e} />
              <Button variant="outline" onClick={() => setEditing(true)}><Pencil aria-hidden /> Edit</Button>
              <Button variant="outline" onClick={toggleStatus} disabled={update.isPending}>{e.status === 'active' ? 'Disable' : 'Enable'}</Button>
              <Confirm
                trigger={<Button variant="outline" className="text-destructive">Delete</Button>}
                title="Delete this endpoint?"
                description="It stops receiving events at once and cannot be restored."
                action="Delete endpoint"
                onConfirm={() => remove.mutate()}
              />
            </>
          }
        />
        <Card>
          <CardHeader><CardTitle>Details</CardTitle></CardHeader>
          <CardContent>
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="text-muted-foreground">Status</dt>
              <dd>
                <Badge variant={e.status === 'active' ? 'success' : 'secondary'} className="capitalize">{e.status}</Badge>
                {e.disabledReason && <span className="ml-2 text-muted-foreground">{e.disabledReason}</span>}
              </dd>
              <dt className="text-muted-foreground">Description</dt><dd>{e.description || '—'}</dd>
              <dt className="text-muted-foreground">Events</dt>
              <dd className="flex flex-wrap gap-1">{e.events.map((t) => <Badge key={t} variant="outline" className="font-mono">{t}</Badge>)}</dd>
              <dt className="text-muted-foreground">ID</dt><dd className="font-mono text-xs break-all">{e.id}</dd>
              <dt className="text-muted-foreground">Created</dt><dd>{formatDate(e.createdAt)}</dd>
            </dl>
          </CardContent>
        </Card>
      </div>
      <SigningSecret endpointId={e.id} />
      <section aria-labelledby="endpoint-deliveries">
        <h2 id="endpoint-deliveries" className="mb-3 text-lg font-semibold">Deliveries to this endpoint</h2>
        <DeliveryLog endpointID={e.id} />
      </section>
      {editing && <EditEndpointDialog endpoint={e} onClose={() => setEditing(false)} />}
    </div>
  );
}

function EditEndpointDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [values, setValues] = React.useState<EndpointValues>({ url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events });
  const save = useUpdateWebhookEndpoint(endpoint.id, {
    onSuccess: (e) => {
      queryClient.setQueryData(webhookKeys.endpoint(endpoint.id), e);
      toast({ title: 'Endpoint saved' });
      onClose();
      return queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints, exact: true });
    },
  });
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }}>
      <DialogContent className="sm:max-w-2xl">
        <form className="grid gap-4" onSubmit={(ev) => { ev.preventDefault(); save.mutate(values); }}>
          <DialogHeader>
            <DialogTitle>Edit endpoint</DialogTitle>
            <DialogDescription>Where events go, and which ones.</DialogDescription>
          </DialogHeader>
          <EndpointFields values={values} onChange={setValues} error={save.error} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
            <Button type="submit" disabled={save.isPending}>Save</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
