import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCreateWebhookEndpoint, webhookKeys } from '@/hooks/api/webhooks';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { OneTimeSecret } from '@/components/copy-button';
import { EndpointFields, type EndpointValues } from './webhook-form';

const empty: EndpointValues = { url: '', description: '', events: [] };

export function CreateEndpointDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const [values, setValues] = React.useState(empty);
  const create = useCreateWebhookEndpoint({ onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }) });
  const body = { url: values.url, events: values.events, ...(values.description ? { description: values.description } : {}) };
  const close = (next: boolean) => {
    if (!next) {
      setValues(empty);
      create.reset();
    }
    onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-2xl">
        {create.data ? (
          <>
            <DialogHeader>
              <DialogTitle>Endpoint added</DialogTitle>
              <DialogDescription className="break-all">{create.data.url}</DialogDescription>
            </DialogHeader>
            <OneTimeSecret value={create.data.signingSecret} label="Signing secret" testId="signing-secret" />
            <p className="text-sm text-muted-foreground">
              Verify every delivery with it (the SDK's <code>verifyWebhook</code>). You can reveal or roll it later on the endpoint's page.
            </p>
            <DialogFooter>
              <Button variant="outline" asChild><Link to={`/developers/webhooks/${create.data.id}`} onClick={() => close(false)}>Open endpoint</Link></Button>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); create.mutate(body); }}>
            <DialogHeader>
              <DialogTitle>Add an endpoint</DialogTitle>
              <DialogDescription>We POST each chosen event to this URL, signed with a secret only you and we know.</DialogDescription>
            </DialogHeader>
            <EndpointFields values={values} onChange={setValues} error={create.error} />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>Cancel</Button>
              <Button type="submit" disabled={create.isPending}>Add endpoint</Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
