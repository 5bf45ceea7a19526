import { Link, useNavigate, useParams } from 'react-router';
import { formatDate } from '@/lib/format';
import { Plus } from 'lucide-react';
import { EmptyState, ListView } from '@/components/list-view';
import { useArchiveCoupon, useCoupon, useCoupons, useCreateCoupon, useUpdateCoupon } from '@/hooks/api/coupons';
import { Confirm } from '@/components/confirm';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import { money } from '../people/format.ts';
import { ErrorNote, Loading, PageHeader } from '../people/parts.tsx';
import { CouponEditor } from './CouponEditor.tsx';
import { couponToForm, createBody, discountWords, durationWords, emptyCouponForm, updateBody } from './coupon-form.ts';

/** Catalog → Discounts: the mode's coupons (docs/coupons.md), newest first, with their uses. */
export function DiscountsPage() {
  const list = useCoupons();
  const create = <Button asChild><Link to="/catalog/discounts/new"><Plus aria-hidden /> New coupon</Link></Button>;
  return (
    <div>
      <PageHeader title="Discounts" description="Coupon codes buyers type at checkout, or that a checkout link fills in." actions={create} />
      <ListView
        list={list}
        label="Coupons"
        rowKey={(c) => c.id}
        empty={<EmptyState title="No coupons yet" action={create}>Make a code such as SPRING20 for a percentage or an amount off, for everything or some products.</EmptyState>}
        columns={[
          { header: 'Code', className: 'font-medium', cell: (c) => <>
            <Link className="font-mono underline-offset-4 hover:underline" to={`/catalog/discounts/${c.id}`}>{c.code}</Link>
            {c.name && <div className="text-xs text-muted-foreground">{c.name}</div>}
          </> },
          { header: 'Discount', cell: (c) => discountWords(c) },
          { header: 'Uses', headClassName: 'text-right', className: 'text-right tabular-nums', cell: (c) => `${c.redemptions}${c.maxRedemptions !== undefined ? ` / ${c.maxRedemptions}` : ''}${c.reserved ? ` (+${c.reserved} paying)` : ''}` },
          { header: 'Ends', className: 'whitespace-nowrap', cell: (c) => (c.endsAt ? formatDate(c.endsAt, '') : 'No end') },
          { header: 'Status', cell: (c) => <Badge variant={c.status === 'active' ? 'default' : 'secondary'}>{c.status}</Badge> },
        ]}
      />
    </div>
  );
}

export function DiscountNewPage() {
  const navigate = useNavigate();
  const create = useCreateCoupon();
  return (
    <div>
      <PageHeader title="New coupon" />
      <CouponEditor initial={emptyCouponForm()} submitLabel="Create coupon" save={async (form) => {
        const c = await create.mutateAsync(createBody(form));
        toast({ title: `${c.code} created` });
        navigate(`/catalog/discounts/${c.id}`);
      }} />
    </div>
  );
}

/** One coupon: what it brought (uses, revenue, discount given), its newest uses, editing and archiving. */
export function DiscountPage() {
  const { id = '' } = useParams();
  const coupon = useCoupon(id);
  const update = useUpdateCoupon(id);
  const archiveCoupon = useArchiveCoupon(id);
  if (coupon.isPending) return <Loading />;
  if (coupon.error) return <><PageHeader title="Coupon" /><ErrorNote error={coupon.error} /></>;
  const c = coupon.data;
  const archive = (
    <Confirm
      trigger={<Button variant="outline" disabled={c.status === 'archived'}>{c.status === 'archived' ? 'Archived' : 'Archive'}</Button>}
      title={`Archive ${c.code}?`}
      description="No new buyer can use it, and its code becomes free for a new coupon. Its uses and revenue stay here, and subscriptions that got it keep their discount."
      action="Archive coupon"
      onConfirm={async () => {
        await archiveCoupon.mutateAsync();
        toast({ title: `${c.code} archived` });
      }}
    />
  );
  const stat = (label: string, value: string) => (
    <Card><CardHeader className="pb-1"><CardTitle className="text-sm font-normal text-muted-foreground">{label}</CardTitle></CardHeader>
      <CardContent className="text-2xl font-semibold tabular-nums">{value}</CardContent></Card>
  );
  const perCurrency = (list: { amount: number; currency: string }[]) => (list.length ? list.map((m) => money(m.amount, m.currency)).join(' · ') : '—');
  return (
    <div>
      <PageHeader title={c.code}
        description={<span className="flex flex-wrap items-center gap-2"><Badge variant={c.status === 'active' ? 'default' : 'secondary'}>{c.status}</Badge>
          <span>{discountWords(c)}, {durationWords(c)} on recurring plans</span><code className="text-xs">{c.id}</code></span>}
        actions={archive} />
      <div className="mb-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {stat('Paid uses', `${c.redemptions}${c.maxRedemptions !== undefined ? ` of ${c.maxRedemptions}` : ''}`)}
        {stat('Paying now', String(c.reserved))}
        {stat('Revenue', perCurrency(c.revenue))}
        {stat('Discount given', perCurrency(c.discounted))}
      </div>
      <Card className="mb-6">
        <CardHeader><CardTitle>Newest uses</CardTitle></CardHeader>
        <CardContent>
          {!c.recentRedemptions.length ? <p className="text-sm text-muted-foreground">Nobody has used it yet.</p> : (
            <Table aria-label="Uses">
              <TableHeader><TableRow><TableHead>Buyer</TableHead><TableHead className="hidden sm:table-cell">Payment</TableHead><TableHead className="hidden text-right sm:table-cell">Discount</TableHead><TableHead className="text-right">Paid</TableHead><TableHead className="hidden md:table-cell">When</TableHead></TableRow></TableHeader>
              <TableBody>
                {c.recentRedemptions.map((r) => (
                  <TableRow key={r.txref}>
                    <TableCell className="max-w-40 truncate">{r.email}</TableCell>
                    <TableCell className="hidden sm:table-cell"><Badge variant={r.status === 'succeeded' ? 'default' : 'secondary'}>{r.status}</Badge></TableCell>
                    <TableCell className="hidden text-right tabular-nums sm:table-cell">{money(r.discount.amount, r.discount.currency)}</TableCell>
                    <TableCell className="text-right tabular-nums">{money(r.paid.amount, r.paid.currency)}</TableCell>
                    <TableCell className="hidden whitespace-nowrap md:table-cell">{formatDate(r.createdAt, '')}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <CouponEditor key={c.updatedAt} editing initial={couponToForm(c)} submitLabel="Save changes" save={async (form) => {
        await update.mutateAsync(updateBody(form));
        toast({ title: 'Saved' });
      }} />
    </div>
  );
}
