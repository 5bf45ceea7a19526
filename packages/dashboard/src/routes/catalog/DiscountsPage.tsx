import { Link, useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import type { Coupon, CouponWithRedemptions } from '@creator-commerce/sdk';
import { api, v1 } from '@/api';
import { Confirm } from '@/components/confirm';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import { money, when } from '../people/format.ts';
import { EmptyState, ErrorNote, LoadMore, Loading, PageHeader } from '../people/parts.tsx';
import { useList } from '../people/use-list.ts';
import { CouponEditor } from './CouponEditor.tsx';
import { couponToForm, createBody, discountWords, durationWords, emptyCouponForm, updateBody } from './coupon-form.ts';

/** Catalog → Discounts: the mode's coupons (docs/coupons.md), newest first, with their uses. */
export function DiscountsPage() {
  const list = useList<Coupon>(v1('/coupons'));
  const create = <Button asChild><Link to="/catalog/discounts/new"><Plus aria-hidden /> New coupon</Link></Button>;
  return (
    <div>
      <PageHeader title="Discounts" description="Coupon codes buyers type at checkout, or that a checkout link fills in." actions={create} />
      <ErrorNote error={list.error} />
      {list.isLoading ? <Loading /> : !list.items.length && !list.error ? (
        <EmptyState title="No coupons yet" action={create}>Make a code such as SPRING20 for a percentage or an amount off, for everything or some products.</EmptyState>
      ) : (
        <Table aria-label="Coupons">
          <TableHeader>
            <TableRow>
              <TableHead>Code</TableHead>
              <TableHead>Discount</TableHead>
              <TableHead className="text-right">Uses</TableHead>
              <TableHead>Ends</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.items.map((c) => (
              <TableRow key={c.id}>
                <TableCell className="font-medium"><Link className="font-mono underline-offset-4 hover:underline" to={`/catalog/discounts/${c.id}`}>{c.code}</Link>
                  {c.name && <div className="text-xs text-muted-foreground">{c.name}</div>}</TableCell>
                <TableCell>{discountWords(c)}</TableCell>
                <TableCell className="text-right tabular-nums">{c.redemptions}{c.maxRedemptions !== undefined ? ` / ${c.maxRedemptions}` : ''}{c.reserved ? ` (+${c.reserved} paying)` : ''}</TableCell>
                <TableCell className="whitespace-nowrap">{c.endsAt ? when(c.endsAt) : 'No end'}</TableCell>
                <TableCell><Badge variant={c.status === 'active' ? 'default' : 'secondary'}>{c.status}</Badge></TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onClick={list.loadMore} />
    </div>
  );
}

export function DiscountNewPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return (
    <div>
      <PageHeader title="New coupon" />
      <CouponEditor initial={emptyCouponForm()} submitLabel="Create coupon" save={async (form) => {
        const c = await api.post<Coupon>(v1('/coupons'), createBody(form));
        qc.invalidateQueries({ queryKey: ['list', v1('/coupons')] });
        toast({ title: `${c.code} created` });
        navigate(`/catalog/discounts/${c.id}`);
      }} />
    </div>
  );
}

/** One coupon: what it brought (uses, revenue, discount given), its newest uses, editing and archiving. */
export function DiscountPage() {
  const { id = '' } = useParams();
  const qc = useQueryClient();
  const key = ['coupon', id];
  const coupon = useQuery({ queryKey: key, queryFn: () => api.get<CouponWithRedemptions>(v1(`/coupons/${encodeURIComponent(id)}`)) });
  if (coupon.isPending) return <Loading />;
  if (coupon.error) return <><PageHeader title="Coupon" /><ErrorNote error={coupon.error} /></>;
  const c = coupon.data;
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: key });
    qc.invalidateQueries({ queryKey: ['list', v1('/coupons')] });
  };
  const archive = (
    <Confirm
      trigger={<Button variant="outline" disabled={c.status === 'archived'}>{c.status === 'archived' ? 'Archived' : 'Archive'}</Button>}
      title={`Archive ${c.code}?`}
      description="No new buyer can use it, and its code becomes free for a new coupon. Its uses and revenue stay here, and subscriptions that got it keep their discount."
      action="Archive coupon"
      onConfirm={async () => {
        await api.del<Coupon>(v1(`/coupons/${encodeURIComponent(c.id)}`));
        await refresh();
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
                    <TableCell className="hidden whitespace-nowrap md:table-cell">{when(r.createdAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <CouponEditor key={c.updatedAt} editing initial={couponToForm(c)} submitLabel="Save changes" save={async (form) => {
        await api.patch<Coupon>(v1(`/coupons/${encodeURIComponent(c.id)}`), updateBody(form));
        await refresh();
        toast({ title: 'Saved' });
      }} />
    </div>
  );
}
