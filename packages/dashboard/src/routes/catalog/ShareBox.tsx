import { useEffect, useState } from 'react';
import { ExternalLink } from 'lucide-react';
import QRCode from 'qrcode';
import type { CheckoutLink, Item, Tier } from '@creator-commerce/sdk';
import { useCreateCheckoutLink, useTierCheckoutLinks } from '@/hooks/api/checkout-links';
import { CopyButton } from '@/components/copy-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/toast';
import { ErrorNote } from '../people/parts.tsx';
import { SelectField } from './fields.tsx';
import { CheckoutLinkEditor } from './CheckoutLinkEditor.tsx';

/** A QR code of `value`, drawn by the qrcode library as an SVG data URL (no canvas, no network). */
function QrCode({ value, label }: { value: string; label: string }) {
  const [src, setSrc] = useState('');
  useEffect(() => {
    let live = true;
    QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
      .then((svg) => { if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`); })
      .catch(() => setSrc(''));
    return () => { live = false; };
  }, [value]);
  return src ? <img src={src} alt={label} width={144} height={144} className="rounded border bg-white p-1" data-testid="share-qr" /> : null;
}

function LinkRow({ url, name }: { url: string; name: string }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <QrCode value={url} label={`QR code for ${name}`} />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-sm font-medium">{name}</p>
        <code className="block break-all rounded bg-muted px-2 py-1 font-mono text-xs" data-testid="share-url">{url}</code>
        <div className="flex flex-wrap gap-2">
          <CopyButton value={url} label="Copy link" />
          <Button variant="outline" size="sm" asChild><a href={url} target="_blank" rel="noreferrer"><ExternalLink aria-hidden />Open</a></Button>
        </div>
      </div>
    </div>
  );
}

/**
 * Share: the reusable checkout link of a tier (`/api/v1/checkout-links`), any number of buyers
 * pay through it, with a copy button and a QR code; and the public product page (`url`).
 */
export function ShareBox({ ownerId, tiers, pageUrl, addons = [] }: { ownerId: string; tiers: Tier[]; pageUrl?: string; addons?: Item[] }) {
  const onSale = tiers.filter((t) => !t.archived && t.status !== 'inactive');
  const [tierId, setTierId] = useState((onSale.find((t) => t.isDefault) ?? onSale[0])?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const [made, setMade] = useState<CheckoutLink | null>(null);
  const links = useTierCheckoutLinks(tierId);
  const createLink = useCreateCheckoutLink();
  const active = links.data?.items.find((l) => l.status === 'active' && (!l.expiresAt || Date.parse(l.expiresAt) > Date.now()));
  const tier = onSale.find((t) => t.id === tierId);

  const create = async () => {
    setBusy(true);
    setFailure(null);
    try {
      // Refreshes the checkout links (this tier's among them) before it resolves.
      await createLink.mutateAsync({ items: [{ id: ownerId, plan: tierId }], name: `Share: ${tier?.name ?? tierId}` });
      toast({ title: 'Share link created' });
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Share</CardTitle>
        <CardDescription>One link for everyone: paste it in a bio or print the QR code. Each buyer fills in the checkout form and pays.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {onSale.length > 1 && (
          <SelectField id="share-tier" label="Tier" value={tierId} onChange={setTierId} choices={onSale.map((t) => ({ value: t.id, label: t.name }))} />
        )}
        {onSale.length === 0 && <p className="text-sm text-muted-foreground">No tier is on sale: add or activate one to share it.</p>}
        {links.error && <ErrorNote error={links.error} />}
        {tierId && !links.isPending && (active
          ? <LinkRow url={active.url} name={`Checkout link: ${tier?.name ?? ''}${active.sales ? ` (${active.sales} sold)` : ''}`} />
          : <div className="space-y-2">
              <p className="text-sm text-muted-foreground">No share link for {tier?.name ?? 'this tier'} yet.</p>
              <Button onClick={create} disabled={busy}>{busy ? 'Creating…' : 'Create share link'}</Button>
            </div>)}
        {failure !== null && <ErrorNote error={failure} />}
        {pageUrl && <LinkRow url={pageUrl} name="Public page" />}
        {onSale.length > 0 && (
          <div className="space-y-4 border-t pt-4">
            <div>
              <p className="text-sm font-medium">A link made to measure</p>
              <p className="text-sm text-muted-foreground">Several tiers to choose from, add-ons ticked in advance, a price range, a coupon, an end date or a sales cap.</p>
            </div>
            {made && <LinkRow url={made.url} name={`Checkout link${made.name ? `: ${made.name}` : ''} (${made.items.length} tier${made.items.length === 1 ? '' : 's'})`} />}
            {editing
              ? <CheckoutLinkEditor ownerId={ownerId} tiers={onSale} addons={addons.filter((a) => a.isAddon && !a.archived)}
                  onMade={(link) => { setMade(link); setEditing(false); }} />
              : <Button variant="outline" onClick={() => setEditing(true)}>New checkout link…</Button>}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
