import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { EmptyState, LoadError, Loading, PageHeader } from '@/components/page';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';
import { CreateEndpointDialog } from './webhook-create';
import { TestEventDialog } from './webhook-test-event';
import { DeliveryLog } from './delivery-log';
import { listEndpoints, webhooksKey } from './webhook-queries';

export function Webhooks() {
  const session = useCurrentSession();
  const endpoints = useQuery({ queryKey: webhooksKey, queryFn: listEndpoints });
  const [creating, setCreating] = React.useState(false);
  const items = endpoints.data?.items ?? [];
  const add = <Button onClick={() => setCreating(true)}><Plus aria-hidden /> Add endpoint</Button>;
  return (
    <div className="flex flex-col gap-8">
      <div>
        <PageHeader
          title="Webhooks"
          description={<>Endpoints that receive your brand's <strong>{session.mode}</strong> events as signed HTTP POSTs.</>}
          actions={<>{items.length > 0 && <TestEventDialog endpoints={items} />}{add}</>}
        />
        {endpoints.isPending ? <Loading /> : endpoints.error ? <LoadError error={endpoints.error} /> : items.length === 0 ? (
          <EmptyState title={`No ${session.mode} endpoints yet`} action={add}>
            Add the URL of your server, choose the events it wants, then send a test event to check it answers.
          </EmptyState>
        ) : (
          <div className="rounded-lg border bg-card">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>URL</TableHead>
                  <TableHead>Events</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Created</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((e) => (
                  <TableRow key={e.id}>
                    <TableCell className="max-w-80">
                      <Link to={`/developers/webhooks/${e.id}`} className="block truncate font-medium underline-offset-4 hover:underline">{e.url}</Link>
                      {e.description && <span className="block truncate text-xs text-muted-foreground">{e.description}</span>}
                    </TableCell>
                    <TableCell>{e.events.length === 1 ? <code className="text-xs">{e.events[0]}</code> : `${e.events.length} events`}</TableCell>
                    <TableCell><Badge variant={e.status === 'active' ? 'success' : 'secondary'} className="capitalize">{e.status}</Badge></TableCell>
                    <TableCell>{formatDate(e.createdAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </div>
      <section aria-labelledby="delivery-log">
        <h2 id="delivery-log" className="mb-3 text-lg font-semibold">Delivery log</h2>
        <DeliveryLog />
      </section>
      <CreateEndpointDialog open={creating} onOpenChange={setCreating} />
    </div>
  );
}
