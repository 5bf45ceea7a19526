import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { EventType, WebhookEndpoint } from '@creator-commerce/sdk';
import { Send } from 'lucide-react';
import { useSendTestEvent, webhookKeys } from '@/hooks/api/webhooks';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { FormError } from '@/components/form';
import { toast } from '@/components/ui/toast';
import { eventTypes } from './event-types';

const EVERY = 'every';

/**
 * Sends a sample event of any type through the real pipeline (signed, retried, logged). On an
 * endpoint's page it goes to that endpoint only; otherwise to one chosen or every subscribed one.
 */
export function TestEventDialog({ endpoint, endpoints = [] }: { endpoint?: WebhookEndpoint; endpoints?: WebhookEndpoint[] }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = React.useState(false);
  const [type, setType] = React.useState<EventType>(endpoint?.events[0] ?? eventTypes[0]);
  const [target, setTarget] = React.useState(endpoint?.id ?? EVERY);
  const send = useSendTestEvent({
    onSuccess: (result) => {
      toast({
        title: 'Test event sent',
        description: result.created === 0 ? 'No active endpoint subscribes to this type, so nothing was delivered.' : `${result.created} deliver${result.created === 1 ? 'y' : 'ies'} queued; watch the log below.`,
      });
      setOpen(false);
      return Promise.all([queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries }), queryClient.invalidateQueries({ queryKey: webhookKeys.events })]);
    },
  });
  return (
    <Dialog open={open} onOpenChange={(o) => { setOpen(o); if (!o) send.reset(); }}>
      <DialogTrigger asChild>
        <Button variant="outline"><Send aria-hidden /> Send test event</Button>
      </DialogTrigger>
      <DialogContent>
        <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); send.mutate({ eventType: type, ...(target !== EVERY ? { endpointID: target } : {}) }); }}>
          <DialogHeader>
            <DialogTitle>Send a test event</DialogTitle>
            <DialogDescription>A sample payload of the type you choose, signed and delivered like a real one, in test or live mode as shown.</DialogDescription>
          </DialogHeader>
          <FormError error={send.error} />
          <div className="grid gap-1.5">
            <Label htmlFor="test-event-type">Event type</Label>
            <Select value={type} onValueChange={(v) => setType(v as EventType)}>
              <SelectTrigger id="test-event-type" className="w-full"><SelectValue /></SelectTrigger>
              <SelectContent>{eventTypes.map((t) => <SelectItem key={t} value={t}>{t}</SelectItem>)}</SelectContent>
            </Select>
          </div>
          {!endpoint && (
            <div className="grid gap-1.5">
              <Label htmlFor="test-event-target">Send to</Label>
              <Select value={target} onValueChange={setTarget}>
                <SelectTrigger id="test-event-target" className="w-full"><SelectValue /></SelectTrigger>
                <SelectContent>
                  <SelectItem value={EVERY}>Every endpoint subscribed to this type</SelectItem>
                  {endpoints.map((e) => <SelectItem key={e.id} value={e.id}>{e.url}</SelectItem>)}
                </SelectContent>
              </Select>
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" disabled={send.isPending}>Send</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
