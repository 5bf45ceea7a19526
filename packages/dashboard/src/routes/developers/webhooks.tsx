import * as React from 'react';
import { Link } from 'react-router';
import { Plus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { useWebhookEndpoints } from '@/hooks/api/webhooks';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';
import { CreateEndpointDialog } from './webhook-create';
import { TestEventDialog } from './webhook-test-event';
import { DeliveryLog } from './delivery-log';

export function Webhooks() {
  const session = useCurrentSession();
  const endpoints = useWebhookEndpoints();
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
        <ListView
          framed
          list={{ items, isLoading: endpoints.isPending, error: endpoints.error }}
          rowKey={(e) => e.id}
          empty={<EmptyState title={`No ${session.mode} endpoints yet`} action={add}>
            Add the URL of your server, choose the events it wants, then send a test event to check it answers.
          </EmptyState>}
          columns={[
            { header: 'URL', className: 'max-w-80', cell: (e) => <>
              <Link to={`/developers/webhooks/${e.id}`} className="block truncate font-medium underline-offset-4 hover:underline">{e.url}</Link>
              {e.description && <span className="block truncate text-xs text-muted-foreground">{e.description}</span>}
            </> },
            { header: 'Events', cell: (e) => (e.events.length === 1 ? <code className="text-xs">{e.events[0]}</code> : `${e.events.length} events`) },
            { header: 'Status', cell: (e) => <Badge variant={e.status === 'active' ? 'success' : 'secondary'} className="capitalize">{e.status}</Badge> },
            { header: 'Created', cell: (e) => formatDate(e.createdAt) },
          ]}
        />
      </div>
      <section aria-labelledby="delivery-log">
        <h2 id="delivery-log" className="mb-3 text-lg font-semibold">Delivery log</h2>
        <DeliveryLog />
      </section>
      <CreateEndpointDialog open={creating} onOpenChange={setCreating} />
    </div>
  );
}
