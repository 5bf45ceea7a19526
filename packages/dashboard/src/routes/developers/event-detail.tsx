import { Link, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { useEvent } from '@/hooks/api/webhooks';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/copy-button';
import { LoadError, Loading, PageHeader } from '@/components/page';
import { formatDate } from '@/lib/format';
import { DeliveryLog } from './delivery-log';
import { describeEventType } from './event-types';

/** One event: the payload exactly as endpoints receive it, and its deliveries. */
export function EventDetail() {
  const { id = '' } = useParams();
  const event = useEvent(id);
  const back = <Link to="/developers/events" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"><ArrowLeft className="size-4" aria-hidden /> Events</Link>;
  if (event.isPending) return <div>{back}<Loading /></div>;
  if (event.error) return <div>{back}<LoadError error={event.error} /></div>;
  const e = event.data;
  const payload = JSON.stringify(e, null, 2);
  return (
    <div className="flex flex-col gap-6">
      <div>
        {back}
        <PageHeader title={e.type} description={<>{describeEventType(e.type)} <span className="font-mono text-xs">{e.id}</span> · {formatDate(e.created)}</>} />
        <Card>
          <CardHeader className="flex flex-row items-center justify-between gap-2">
            <CardTitle>Payload <Badge variant="outline" className="ml-1 font-normal">as delivered</Badge></CardTitle>
            <CopyButton value={payload} label="Copy JSON" />
          </CardHeader>
          <CardContent>
            <pre data-testid="event-payload" className="max-h-[28rem] overflow-auto rounded-md bg-muted p-3 font-mono text-xs">{payload}</pre>
          </CardContent>
        </Card>
      </div>
      <section aria-labelledby="event-deliveries">
        <h2 id="event-deliveries" className="mb-3 text-lg font-semibold">Deliveries of this event</h2>
        <DeliveryLog eventID={e.id} showFilters={false} />
      </section>
    </div>
  );
}
