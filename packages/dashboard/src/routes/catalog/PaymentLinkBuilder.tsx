import { useState, type FormEvent } from 'react';
import { Copy, ExternalLink } from 'lucide-react';
import type { CheckoutField, PaymentLink, Product } from '@creator-commerce/sdk';
import { errorDetails } from '@/api';
import { useCreatePaymentLink } from '@/hooks/api/checkout-links';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/toast';
import { money } from '../people/format.ts';
import { ErrorNote } from '../people/parts.tsx';
import { CheckField, SelectField, TextField } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';

/** A stand-in answer of the field's type, for the preview link. */
function sampleAnswer(f: CheckoutField): string | number | boolean {
  switch (f.type) {
    case 'number': return 1;
    case 'checkbox': return true;
    case 'select': return f.options?.[0] ?? 'Sample';
    case 'email': return 'preview@example.com';
    case 'phone': return '+15550100';
    case 'date': return new Date().toISOString().slice(0, 10);
    default: return 'Sample answer';
  }
}

type Answers = Record<string, string | boolean>;

/**
 * Makes a payment link for one of the product's tiers (`POST /api/v1/payment-links`) for a
 * named buyer, to copy and send; and a preview link with stand-in answers that opens the hosted
 * checkout page as a buyer sees it (the checkout refuses to be framed, so it opens in a tab).
 */
export function PaymentLinkBuilder({ product }: { product: Product & { hubID?: string } }) {
  const tiers = product.tiers.filter((t) => !t.archived && t.status !== 'inactive');
  const [tierId, setTierId] = useState((tiers.find((t) => t.isDefault) ?? tiers[0])?.id ?? '');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [answers, setAnswers] = useState<Answers>({});
  const [customAmount, setCustomAmount] = useState('');
  const [link, setLink] = useState<PaymentLink | null>(null);
  const [preview, setPreview] = useState<PaymentLink | null>(null);
  const [errors, setErrors] = useState<FieldErrors>(noErrors);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const create = useCreatePaymentLink();
  const tier = tiers.find((t) => t.id === tierId);

  const body = (buyer: { fullName: string; email: string }, formAnswers: Record<string, unknown>) => ({
    items: [{
      id: product.id, plan: tierId, type: product.type,
      ...(product.hubID ? { hubID: product.hubID } : {}),
      ...(tier?.type === 'pay_what_you_want' && customAmount.trim() ? { customAmount: Number(customAmount) } : {}),
    }],
    form: { formData: { ...buyer, ...formAnswers } },
  });

  const make = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const formAnswers: Record<string, unknown> = {};
      for (const f of product.checkoutFields) {
        const a = answers[f.id];
        if (a === undefined || a === '') continue;
        formAnswers[f.id] = f.type === 'number' && typeof a === 'string' && a.trim() !== '' && Number.isFinite(Number(a)) ? Number(a) : a;
      }
      setLink(await create.mutateAsync(body({ fullName, email }, formAnswers)));
      setErrors(noErrors);
    } catch (err) {
      setErrors(new FieldErrors(errorDetails(err)));
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  const makePreview = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const sample = Object.fromEntries(product.checkoutFields.filter((f) => f.required).map((f) => [f.id, sampleAnswer(f)]));
      const p = await create.mutateAsync(body({ fullName: 'Preview buyer', email: 'preview@example.com' }, sample));
      setPreview(p);
      window.open(p.link, '_blank', 'noopener');
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: 'Link copied' });
    } catch {
      toast({ title: 'Copy failed: select the link and copy it', variant: 'destructive' });
    }
  };

  const fe = (path: string) => errors.get(path);

  if (!tiers.length) {
    return <p className="text-sm text-muted-foreground">Every tier is archived or off sale: add an active tier to sell this product.</p>;
  }
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Payment link</CardTitle>
          <CardDescription>A checkout link for one buyer. It can be paid once.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={make} noValidate className="space-y-4">
            <SelectField id="link-tier" label="Tier" value={tierId} onChange={setTierId} error={fe('items[0].plan')}
              choices={tiers.map((t) => ({ value: t.id, label: `${t.name} · ${money(t.price.amount, t.price.currency)}` }))} />
            {tier?.type === 'pay_what_you_want' && (
              <TextField id="link-amount" label={`Amount (at least ${money(tier.price.amount, tier.price.currency)})`} inputMode="decimal"
                value={customAmount} onChange={setCustomAmount} error={fe('items[0].customAmount')} />
            )}
            <TextField id="link-name" label="Buyer name" value={fullName} onChange={setFullName} error={fe('form.formData.fullName')} autoComplete="off" />
            <TextField id="link-email" label="Buyer email" type="email" value={email} onChange={setEmail} error={fe('form.formData.email')} autoComplete="off" />
            {product.checkoutFields.map((f) => {
              const id = `link-field-${f.id}`;
              const label = `${f.label}${f.required ? '' : ' (optional)'}`;
              const err = fe(`form.formData.${f.id}`);
              if (f.type === 'checkbox') {
                return <CheckField key={f.id} id={id} label={label} checked={answers[f.id] === true} onChange={(v) => setAnswers({ ...answers, [f.id]: v })} error={err} />;
              }
              if (f.type === 'select') {
                return <SelectField key={f.id} id={id} label={label} value={String(answers[f.id] ?? '')} onChange={(v) => setAnswers({ ...answers, [f.id]: v })} error={err}
                  choices={(f.options ?? []).map((o) => ({ value: o, label: o }))} />;
              }
              const type = f.type === 'number' ? 'number' : f.type === 'date' ? 'date' : f.type === 'email' ? 'email' : f.type === 'phone' ? 'tel' : 'text';
              return <TextField key={f.id} id={id} label={label} type={type} value={String(answers[f.id] ?? '')} onChange={(v) => setAnswers({ ...answers, [f.id]: v })} error={err} />;
            })}
            <ErrorNote error={failure} />
            <Button type="submit" disabled={busy || !tierId}>Make payment link</Button>
          </form>
          {link && (
            <div className="mt-4 space-y-2 rounded-md border bg-muted/40 p-3">
              <Label htmlFor="made-link">Link for {fullName || email} · {money(link.amount, link.currency)}</Label>
              <div className="flex gap-2">
                <Input id="made-link" readOnly value={link.link} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
                <Button type="button" variant="outline" onClick={() => copy(link.link)}><Copy aria-hidden /> Copy</Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Checkout preview</CardTitle>
          <CardDescription>
            Opens the hosted checkout page of a new link for the chosen tier, with a stand-in buyer, in a new tab. In test mode it can be paid with a test card;
            in live mode it is a real link.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <Button type="button" variant="outline" onClick={makePreview} disabled={busy || !tierId}><ExternalLink aria-hidden /> Preview checkout</Button>
          {preview && (
            <p className="text-sm break-all">
              Preview: <a className="text-primary underline" href={preview.link} target="_blank" rel="noopener">{preview.link}</a>
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
