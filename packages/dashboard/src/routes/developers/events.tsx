import * as React from 'react';
import { Link, useSearchParams } from 'react-router';
import type { EventType } from '@creator-commerce/sdk';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { EmptyState, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { useEvents } from '@/hooks/api/webhooks';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';
import { usePageTitle } from '@/lib/title';
import { describeEventType, eventTypes } from './event-types';

const ALL = 'all';

export function Events() {
  const session = useCurrentSession();
  const [type, setType] = React.useState(ALL);
  // `?resourceID=` (a txref, membership or payout id) narrows the list to one thing's events: the
  // transaction pages link here with it.
  const [params, setParams] = useSearchParams();
  const resourceID = params.get('resourceID') || undefined;
  usePageTitle(resourceID ? `Events of ${resourceID}` : 'Events');
  const events = useEvents({ type: type === ALL ? undefined : (type as EventType), resourceID });
  return (
    <div>
      <PageHeader title="Events" description={<>Everything that happened in <strong>{session.mode}</strong> mode, newest first. Each event is sent to the endpoints subscribed to its type.</>} />
      {resourceID && (
        <p className="mb-3 text-sm" data-testid="resource-filter">
          Only events about <span className="font-mono">{resourceID}</span>.{' '}
          <button type="button" className="text-primary underline" onClick={() => setParams({})}>Show all events</button>
        </p>
      )}
      <div className="mb-3 grid w-fit gap-1.5">
        <Label htmlFor="event-type-filter">Event type</Label>
        <Select value={type} onValueChange={setType}>
          <SelectTrigger id="event-type-filter" className="w-56"><SelectValue /></SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All event types</SelectItem>
            {eventTypes.map((t) => <SelectItem key={t} value={t}>{t}</SelectItem>)}
          </SelectContent>
        </Select>
      </div>
      <ListView
        framed
        list={events}
        rowKey={(e) => e.id}
        empty={<EmptyState title="No events">
          {type !== ALL ? 'No event of this type yet.' : 'Events appear when payments, members and payouts change, or when you send a test event from Webhooks.'}
        </EmptyState>}
        columns={[
          { header: 'Type', cell: (e) => <Link to={`/developers/events/${e.id}`} className="underline-offset-4 hover:underline"><Badge variant="outline" className="font-mono">{e.type}</Badge></Link> },
          { header: 'What happened', className: 'text-muted-foreground', cell: (e) => describeEventType(e.type) },
          { header: 'ID', className: 'font-mono text-xs', cell: (e) => e.id },
          { header: 'Created', cell: (e) => formatDate(e.created) },
        ]}
      />
    </div>
  );
}
