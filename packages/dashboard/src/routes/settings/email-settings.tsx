import * as React from 'react';
import { errorMessage, fieldErrorOf } from '@/api';
import { useEmailSettings, useUpdateEmailSettings } from '@/hooks/api/emails';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast';
import { Field, FormError } from '@/components/form';
import { LoadError, Loading } from '@/components/page';


const buyerKindLabels: Record<string, string> = {
  receipt: 'Receipts for payments and renewals',
  renewal_failed: 'A renewal payment failed',
  membership_ended: 'A membership ended',
  cancellation: 'Cancellation confirmations',
  refund: 'Refund confirmations',
  subscription_ending: 'A subscription enters its last period',
  new_content: 'New in a product, when you choose to tell buyers (only to buyers who agreed to your mail)',
  order_shipped: 'An order was shipped, with its tracking number',
  order_ready_for_pickup: 'An order is ready for pickup',
};

/** Settings → Email: the sender name, reply-to address, colour, and which mail buyers get. */
export function EmailSettingsCard() {
  const settings = useEmailSettings();
  const [fromName, setFromName] = React.useState('');
  const [replyTo, setReplyTo] = React.useState('');
  const [colour, setColour] = React.useState('#2b59c3');
  const [kinds, setKinds] = React.useState<Record<string, boolean>>({});
  const [askCode, setAskCode] = React.useState(false);
  React.useEffect(() => {
    if (!settings.data) return;
    setFromName(settings.data.fromName ?? '');
    setReplyTo(settings.data.replyTo ?? '');
    setColour(settings.data.brandColour);
    setKinds(settings.data.buyerEmails);
    setAskCode(settings.data.checkoutEmailVerification ?? false);
  }, [settings.data]);
  const save = useUpdateEmailSettings({
    onSuccess: () => { toast({ title: 'Email settings saved' }); },
    onError: (err) => toast({ title: 'Could not save', description: errorMessage(err), variant: 'destructive' }),
  });
  const fieldError = (f: string) => fieldErrorOf(save.error, f);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Email</CardTitle>
        <CardDescription>How mail to your buyers looks, and which of it they get. Receipts and notices are listed under Developers → Emails.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? <Loading /> : settings.error ? <LoadError error={settings.error} /> : (
          <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); save.mutate({
            fromName: fromName.trim() || null, replyTo: replyTo.trim() || null, brandColour: colour, buyerEmails: kinds, checkoutEmailVerification: askCode,
          }); }}>
            <FormError error={save.error} fields={['fromName', 'replyTo', 'brandColour', 'buyerEmails']} />
            <Field label="Sender name" name="fromName" value={fromName} onChange={(e) => setFromName(e.target.value)}
              placeholder={settings.data.effectiveFromName} hint="Shown as who the mail is from; empty means your brand's name." error={fieldError('fromName')} />
            <Field label="Reply-to address" name="replyTo" type="email" value={replyTo} onChange={(e) => setReplyTo(e.target.value)}
              placeholder="support@example.com" hint="Where buyers' replies go; empty means no reply-to." error={fieldError('replyTo')} />
            <div className="grid gap-1.5">
              <Label htmlFor="brandColour">Colour</Label>
              <div className="flex items-center gap-2">
                <input id="brandColour" type="color" value={colour} onChange={(e) => setColour(e.target.value)} className="h-9 w-14 cursor-pointer rounded border" />
                <code className="font-mono text-xs">{colour}</code>
              </div>
            </div>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Mail to buyers</legend>
              {Object.entries(buyerKindLabels).map(([kind, label]) => (
                <div key={kind} className="flex items-center justify-between gap-4 rounded-md border p-2.5">
                  <Label htmlFor={`kind-${kind}`} className="font-normal">{label}</Label>
                  <Switch id={`kind-${kind}`} checked={kinds[kind] ?? true} onCheckedChange={(on) => setKinds((k) => ({ ...k, [kind]: on }))} />
                </div>
              ))}
            </fieldset>
            <div className="flex items-center justify-between gap-4 rounded-md border p-2.5">
              <div className="grid gap-0.5">
                <Label htmlFor="checkout-code" className="font-normal">Confirm buyers' email at checkout</Label>
                <p className="text-xs text-muted-foreground">Buyers type a 6-digit code we email them before they pay. Links made with checkoutOtpVerificationSkipped skip it.</p>
              </div>
              <Switch id="checkout-code" checked={askCode} onCheckedChange={setAskCode} />
            </div>
            <div><Button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save email settings'}</Button></div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
