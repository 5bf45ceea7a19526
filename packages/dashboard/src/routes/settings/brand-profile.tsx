import { useState, type FormEvent } from 'react';
import { ExternalLink } from 'lucide-react';
import type { Brand, BrandUpdateParams } from '@creator-commerce/sdk';
import { errorDetails } from '@/api';
import { useBrand, useUpdateBrand } from '@/hooks/api/brand';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/toast';
import { ErrorNote, Loading } from '../people/parts.tsx';
import { TextAreaField, TextField } from '../catalog/fields.tsx';
import { FieldErrors, noErrors } from '../catalog/form-errors.ts';

type Form = Record<'displayName' | 'slug' | 'logoUrl' | 'accentColor' | 'supportEmail' | 'timeZone' | 'defaultCurrency' | 'postalAddress' | 'taxNumber' | 'embedOrigins', string>;

const toForm = (b: Brand): Form => ({
  displayName: b.displayName, slug: b.slug ?? '', logoUrl: b.logoUrl ?? '', accentColor: b.accentColor ?? '',
  supportEmail: b.supportEmail ?? '', timeZone: b.timeZone ?? '', defaultCurrency: b.defaultCurrency ?? '',
  postalAddress: b.postalAddress ?? '', taxNumber: b.taxNumber ?? '',
  embedOrigins: (b.embedOrigins ?? []).join('\n'),
});

/** Empty inputs clear the field (null); the display name falls back to the account name. The sites are one per line. */
const toBody = (f: Form): BrandUpdateParams => ({
  ...Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'embedOrigins').map(([k, v]) => [k, v.trim() === '' ? null : v.trim()])),
  embedOrigins: f.embedOrigins.split(/[\s,]+/).filter(Boolean),
}) as BrandUpdateParams;

const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

/** The brand profile (`GET/PATCH /api/v1/brand`): what the public storefront and checkout pages show. */
export function BrandProfileCard() {
  const brand = useBrand();
  if (brand.isPending) return <Loading />;
  if (brand.error) return <ErrorNote error={brand.error} />;
  return <BrandProfileForm key={JSON.stringify(brand.data)} brand={brand.data} />;
}

function BrandProfileForm({ brand }: { brand: Brand }) {
  const update = useUpdateBrand();
  const [form, setForm] = useState<Form>(toForm(brand));
  const [errors, setErrors] = useState<FieldErrors>(noErrors);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    setErrors(noErrors);
    try {
      // Stored as the brand's answer, which re-keys this form with what was saved.
      await update.mutateAsync(toBody(form));
      toast({ title: 'Brand profile saved' });
    } catch (err) {
      if (errorDetails(err).length) setErrors(new FieldErrors(errorDetails(err)));
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Storefront profile</CardTitle>
        <CardDescription>
          What buyers see on your storefront, product and checkout pages. Your storefront:{' '}
          <a className="inline-flex items-center gap-1 break-all underline" href={brand.storefrontUrl} target="_blank" rel="noreferrer" data-testid="storefront-url">
            {brand.storefrontUrl}<ExternalLink className="size-3" aria-hidden />
          </a>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={save} className="grid gap-4 sm:grid-cols-2" noValidate>
          <TextField id="brand-displayName" label="Display name" value={form.displayName} onChange={set('displayName')} error={errors.get('displayName')} />
          <TextField id="brand-slug" label="Storefront address (slug)" value={form.slug} onChange={set('slug')} error={errors.get('slug')}
            hint="Lower-case letters, digits and hyphens: /s/your-slug" autoCapitalize="none" spellCheck={false} />
          <TextField id="brand-logoUrl" label="Logo URL" type="url" value={form.logoUrl} onChange={set('logoUrl')} error={errors.get('logoUrl')} hint="An https:// image address." />
          <TextField id="brand-accentColor" label="Accent colour" value={form.accentColor} onChange={set('accentColor')} error={errors.get('accentColor')}
            hint={<span className="flex items-center gap-2">A dark colour such as #6b21a8 for buttons.{/^#[0-9a-f]{6}$/i.test(form.accentColor) && <span className="inline-block size-4 rounded border" style={{ background: form.accentColor }} aria-hidden />}</span>} />
          <TextField id="brand-supportEmail" label="Support email" type="email" value={form.supportEmail} onChange={set('supportEmail')} error={errors.get('supportEmail')} />
          <TextField id="brand-timeZone" label="Time zone" value={form.timeZone} onChange={set('timeZone')} error={errors.get('timeZone')}
            hint="Event dates and sale deadlines show in it, e.g. Europe/Lisbon." list="brand-time-zones" />
          <datalist id="brand-time-zones">{zones.map((z) => <option key={z} value={z} />)}</datalist>
          <TextField id="brand-defaultCurrency" label="Default currency" value={form.defaultCurrency} onChange={set('defaultCurrency')} error={errors.get('defaultCurrency')}
            hint="Three letters, e.g. USD." maxLength={3} />
          <TextAreaField id="brand-postalAddress" label="Business address" value={form.postalAddress} onChange={set('postalAddress')} error={errors.get('postalAddress')}
            hint="Printed on every invoice under your name, one line per line." />
          <TextField id="brand-taxNumber" label="Tax number" value={form.taxNumber} onChange={set('taxNumber')} error={errors.get('taxNumber')}
            hint="VAT, GST or EIN, as it should appear on invoices. Optional." />
          <TextAreaField id="brand-embedOrigins" label="Sites that may embed your checkout" className="sm:col-span-2" value={form.embedOrigins} onChange={set('embedOrigins')}
            error={errors.get('embedOrigins') ?? errors.under('embedOrigins', () => false)[0]}
            hint="One address per line, like https://your-site.example: only these sites can open your checkout in the overlay (/embed.js). Leave empty to allow none." />
          <div className="sm:col-span-2 space-y-3">
            {failure !== null && <ErrorNote error={failure} />}
            <Button type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save profile'}</Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
