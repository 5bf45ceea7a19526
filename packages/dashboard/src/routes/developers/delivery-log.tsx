import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DeliveryListParams, EventType, WebhookDelivery } from '@creator-commerce/sdk';
import { RotateCw } from 'lucide-react';
import { errorMessage } from '@/api';
import { EmptyState, ListView } from '@/components/list-view';
import { useDeliveries, useDelivery, useResendDelivery, useWebhookEndpoints, webhookKeys } from '@/hooks/api/webhooks';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { LoadError, Loading } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';
import { eventTypes } from './event-types';

const statusVariant: Record<string, 'success' | 'destructive' | 'warning'> = { succeeded: 'success', failed: 'destructive', pending: 'warning' };

export function DeliveryStatus({ status }: { status: WebhookDelivery['status'] }) {
  return <Badge variant={statusVariant[status] ?? 'secondary'} className="capitalize">{status}</Badge>;
}

const ALL = 'all';

/**
 * The delivery log: newest first, filtered by status and event type (and endpoint, on an
 * endpoint's page). A row opens the delivery: every attempt and a resend button.
 */
export function DeliveryLog({ endpointID, showFilters = true, eventID, eventType }:
  { endpointID?: string; showFilters?: boolean; eventID?: string; eventType?: EventType }) {
  const [status, setStatus] = React.useState<string>(ALL);
  const [type, setType] = React.useState<string>(eventType ?? ALL);
  const [open, setOpen] = React.useState<string | null>(null);
  const endpoints = useWebhookEndpoints({ enabled: !endpointID });
  const endpointUrls = Object.fromEntries((endpoints.data?.items ?? []).map((e) => [e.id, e.url]));
  const filters: DeliveryListParams = {
    endpointID,
    eventID,
    status: status === ALL ? undefined : (status as DeliveryListParams['status']),
    eventType: type === ALL ? undefined : (type as EventType),
  };
  const deliveries = useDeliveries(filters);

  return (
    <div className="flex flex-col gap-3">
      {showFilters && (
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="delivery-status">Status</Label>
            <Select value={status} onValueChange={setStatus}>
              <SelectTrigger id="delivery-status" className="w-40"><SelectValue /></SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All statuses</SelectItem>
                <SelectItem value="succeeded">Succeeded</SelectItem>
                <SelectItem value="pending">Pending</SelectItem>
                <SelectItem value="failed">Failed</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="delivery-type">Event type</Label>
            <Select value={type} onValueChange={setType}>
              <SelectTrigger id="delivery-type" className="w-56"><SelectValue /></SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All event types</SelectItem>
                {eventTypes.map((t) => <SelectItem key={t} value={t}>{t}</SelectItem>)}
              </SelectContent>
            </Select>
          </div>
          <Button variant="outline" size="sm" className="mb-0.5" onClick={() => deliveries.refetch()} disabled={deliveries.isFetching}>
            <RotateCw aria-hidden className={deliveries.isFetching ? 'animate-spin' : ''} /> Refresh
          </Button>
        </div>
      )}
      <ListView
        framed
        list={deliveries}
        rowKey={(d) => d.id}
        rowProps={() => ({ 'data-testid': 'delivery-row' })}
        empty={<EmptyState title="No deliveries">
          {status !== ALL || type !== ALL ? 'Nothing matches these filters.' : 'Deliveries appear here when an event is sent to an endpoint. Send a test event to see one.'}
        </EmptyState>}
        columns={[
          { header: 'Event', cell: (d) => (
            <button type="button" className="rounded-sm text-left font-mono text-xs underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
              onClick={() => setOpen(d.id)}>
              {d.eventType}
            </button>
          ) },
          !endpointID && { header: 'Endpoint', className: 'max-w-64 truncate text-xs', cell: (d) => endpointUrls[d.endpointID] ?? d.endpointID },
          { header: 'Status', cell: (d) => <DeliveryStatus status={d.status} /> },
          { header: 'Attempts', cell: (d) => d.attempts },
          { header: 'Response', cell: (d) => d.responseCode ?? '—' },
          { header: 'Created', cell: (d) => formatDate(d.createdAt) },
        ]}
      />
      {open && <DeliveryDialog id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** One delivery: its attempts (time, response code, duration, body excerpt) and a resend button. */
export function DeliveryDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  // A pending delivery changes as the worker tries it: followed until it settles.
  const delivery = useDelivery(id);
  const resend = useResendDelivery(id, {
    onSuccess: () => {
      toast({ title: 'Resent', description: 'The delivery is queued again; its new attempt appears below.' });
      return queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries });
    },
    onError: (err) => toast({ title: 'Could not resend', description: errorMessage(err), variant: 'destructive' }),
  });
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Delivery</DialogTitle>
          <DialogDescription className="font-mono text-xs break-all">{id}</DialogDescription>
        </DialogHeader>
        {delivery.isPending ? <Loading /> : delivery.error ? <LoadError error={delivery.error} /> : (
          <div className="grid gap-4 text-sm">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
              <dt className="text-muted-foreground">Event</dt><dd className="font-mono text-xs break-all">{delivery.data.eventType} · {delivery.data.eventID}</dd>
              <dt className="text-muted-foreground">Status</dt><dd><DeliveryStatus status={delivery.data.status} />{delivery.data.failureReason && <span className="ml-2 text-muted-foreground">{delivery.data.failureReason}</span>}</dd>
              <dt className="text-muted-foreground">Created</dt><dd>{formatDate(delivery.data.createdAt)}</dd>
              {delivery.data.deliveredAt && <><dt className="text-muted-foreground">Delivered</dt><dd>{formatDate(delivery.data.deliveredAt)}</dd></>}
              {delivery.data.nextAttemptAt && <><dt className="text-muted-foreground">Next attempt</dt><dd>{formatDate(delivery.data.nextAttemptAt)}</dd></>}
            </dl>
            <div>
              <h3 className="mb-2 font-medium">Attempts</h3>
              {delivery.data.attemptLog.length === 0 ? <p className="text-muted-foreground">No attempt yet.</p> : (
                <ol className="grid gap-2">
                  {delivery.data.attemptLog.map((a) => (
                    <li key={a.number} data-testid="attempt" className="rounded-md border p-3">
                      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
                        <span className="font-medium">#{a.number}</span>
                        <span>{formatDate(a.attemptedAt)}</span>
                        <Badge variant={a.responseCode && a.responseCode < 300 ? 'success' : 'destructive'}>{a.responseCode ?? 'no answer'}</Badge>
                        <span className="text-muted-foreground">{a.durationMs} ms</span>
                      </div>
                      {a.error && <p className="mt-1 text-destructive">{a.error}</p>}
                      {a.responseBody && <pre className="mt-2 max-h-40 overflow-auto rounded bg-muted p-2 text-xs whitespace-pre-wrap break-all">{a.responseBody}</pre>}
                    </li>
                  ))}
                </ol>
              )}
            </div>
            <Button className="w-fit" onClick={() => resend.mutate()} disabled={resend.isPending}><RotateCw aria-hidden /> Resend</Button>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
