import type { Affiliate, AffiliateCreateParams } from '@creator-commerce/sdk';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Plus } from 'lucide-react';
import { errorDetails } from '@/api';
import { EmptyState, ListView } from '@/components/list-view';
import { useAffiliate, useAffiliates, useCreateAffiliate, useUpdateAffiliate } from '@/hooks/api/affiliates';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import { money } from '../people/format.ts';
import { ErrorNote, Loading, PageHeader } from '../people/parts.tsx';
import { CheckField, TextField } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';
import { FormProblem } from './form-parts.tsx';

/** Affiliates (docs/affiliates.md): who earns a commission on the sales their code brings, and what they earned. */

// One line per currency, so two currencies fit a phone's width.
const stat = (a: Affiliate, pick: 'pending' | 'earned') => (a.stats.length ? a.stats.map((s) => <div key={s.currency}>{money(s[pick], s.currency)}</div>) : '—');

export function AffiliatesPage() {
  const list = useAffiliates();
  const create = <Button asChild><Link to="/catalog/affiliates/new"><Plus aria-hidden /> New affiliate</Link></Button>;
  return (
    <div>
      <PageHeader title="Affiliates" description="People who earn a commission on the sales their code brings. Commission is held while refunds can take it back, then earned and deducted from your payouts." actions={create} />
      <ListView
        list={list}
        label="Affiliates"
        rowKey={(a) => a.id}
        empty={<EmptyState title="No affiliates yet" action={create}>Add an affiliate and share links with their code (?ref=CODE on a checkout link).</EmptyState>}
        // At phone width the money columns matter most: code and sales count are on the affiliate's page.
        columns={[
          { header: 'Name', className: 'font-medium', cell: (a) => <>
            <Link className="underline-offset-4 hover:underline" to={`/catalog/affiliates/${a.id}`}>{a.name}</Link>
            {a.status === 'archived' && <Badge variant="secondary" className="ml-2">Archived</Badge>}
          </> },
          { header: 'Code', headClassName: 'hidden sm:table-cell', className: 'hidden font-mono text-xs sm:table-cell', cell: (a) => a.code },
          { header: 'Commission', headClassName: 'hidden sm:table-cell', className: 'hidden whitespace-nowrap sm:table-cell', cell: (a) => `${a.commissionPercent}%${a.recurring ? ', renewals too' : ''}` },
          { header: 'Sales', headClassName: 'hidden sm:table-cell', className: 'hidden sm:table-cell', cell: (a) => a.stats.reduce((n, s) => n + s.sales, 0) },
          { header: 'Pending', className: 'whitespace-nowrap', cell: (a) => stat(a, 'pending') },
          { header: 'Earned', className: 'whitespace-nowrap', cell: (a) => stat(a, 'earned') },
        ]}
      />
    </div>
  );
}

interface AffiliateForm { name: string; email: string; code: string; commissionPercent: string; recurring: boolean }

const emptyForm: AffiliateForm = { name: '', email: '', code: '', commissionPercent: '20', recurring: false };
const toForm = (a: Affiliate): AffiliateForm => ({ name: a.name, email: a.email, code: a.code, commissionPercent: String(a.commissionPercent), recurring: a.recurring });
// A percent that is not a number is sent as text, so the API's 400 names the field.
const toBody = (f: AffiliateForm): AffiliateCreateParams => ({
  name: f.name, email: f.email, code: f.code, recurring: f.recurring,
  commissionPercent: (f.commissionPercent.trim() !== '' && !Number.isNaN(Number(f.commissionPercent)) ? Number(f.commissionPercent) : f.commissionPercent) as number,
});

function AffiliateEditor({ initial, save, submitLabel }: { initial: AffiliateForm; save: (f: AffiliateForm) => Promise<void>; submitLabel: string }) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>(noErrors);
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      await save(form);
      setErrors(noErrors);
    } catch (err) {
      setErrors(new FieldErrors(errorDetails(err)));
      setFailure(err);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure !== null && (errors.size ? <FormProblem errors={errors} /> : <ErrorNote error={failure} />)}
      <Card>
        <CardHeader>
          <CardTitle>Affiliate</CardTitle>
          <CardDescription>Their code attributes a sale: items[].affiliate on a payment link, or ?ref=CODE on a checkout link.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <TextField id="aff-name" label="Name" value={form.name} onChange={(v) => setForm({ ...form, name: v })} error={errors.get('name')} />
          <TextField id="aff-email" label="Email" type="email" value={form.email} onChange={(v) => setForm({ ...form, email: v })} error={errors.get('email')} />
          <TextField id="aff-code" label="Code" value={form.code} onChange={(v) => setForm({ ...form, code: v })} error={errors.get('code')}
            hint="Letters, digits, - and _; not case-sensitive." />
          <TextField id="aff-percent" label="Commission (%)" inputMode="decimal" value={form.commissionPercent} onChange={(v) => setForm({ ...form, commissionPercent: v })}
            error={errors.get('commissionPercent')} hint="Of each sale's net: its amount less the platform fee." />
          <CheckField id="aff-recurring" label="Earns on subscription renewals too" checked={form.recurring} onChange={(v) => setForm({ ...form, recurring: v })} className="sm:col-span-2" />
        </CardContent>
      </Card>
      <div className="sticky bottom-0 z-10 flex justify-end border-t bg-background/95 py-3 backdrop-blur">
        <Button type="submit" disabled={saving}>{saving ? 'Saving…' : submitLabel}</Button>
      </div>
    </form>
  );
}

export function AffiliateNewPage() {
  const navigate = useNavigate();
  const create = useCreateAffiliate();
  return (
    <div>
      <PageHeader title="New affiliate" />
      <AffiliateEditor initial={emptyForm} submitLabel="Create affiliate" save={async (form) => {
        const made = await create.mutateAsync(toBody(form));
        toast({ title: `${made.name} added` });
        navigate(`/catalog/affiliates/${made.id}`);
      }} />
    </div>
  );
}

/** One affiliate: what they brought and earned per currency, their settings, archive or restore. */
export function AffiliatePage() {
  const { id = '' } = useParams();
  const affiliate = useAffiliate(id);
  const update = useUpdateAffiliate(id);
  const [failure, setFailure] = useState<unknown>(null);
  if (affiliate.isPending) return <Loading />;
  if (affiliate.error) return <><PageHeader title="Affiliate" /><ErrorNote error={affiliate.error} /></>;
  const a = affiliate.data;
  const archived = a.status === 'archived';
  const toggle = async () => {
    setFailure(null);
    try {
      await update.mutateAsync({ status: archived ? 'active' : 'archived' });
      toast({ title: archived ? 'Restored' : 'Archived: the code attributes no new sales' });
    } catch (err) {
      setFailure(err);
    }
  };
  return (
    <div>
      <PageHeader title={a.name} description={`Code ${a.code}`}
        actions={<Button variant="outline" onClick={toggle}>{archived ? 'Restore' : 'Archive'}</Button>} />
      <ErrorNote error={failure} />
      <Card className="mb-6">
        <CardHeader>
          <CardTitle>Sales and commission {archived && <Badge variant="secondary" className="ml-2">Archived</Badge>}</CardTitle>
          <CardDescription>Pending commission is still in its hold (a refund takes it back); earned is owed and deducted from your payouts.</CardDescription>
        </CardHeader>
        <CardContent>
          {!a.stats.length ? <p className="text-sm text-muted-foreground">No sales attributed yet.</p> : (
            <Table aria-label="Commission by currency">
              <TableHeader>
                <TableRow>
                  <TableHead>Currency</TableHead>
                  <TableHead>Sales</TableHead>
                  <TableHead>Sales amount</TableHead>
                  <TableHead>Pending</TableHead>
                  <TableHead>Earned</TableHead>
                  <TableHead>Paid out</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {a.stats.map((s) => (
                  <TableRow key={s.currency}>
                    <TableCell>{s.currency}</TableCell>
                    <TableCell>{s.sales}</TableCell>
                    <TableCell className="whitespace-nowrap">{money(s.salesAmount, s.currency)}</TableCell>
                    <TableCell className="whitespace-nowrap">{money(s.pending, s.currency)}</TableCell>
                    <TableCell className="whitespace-nowrap">{money(s.earned, s.currency)}</TableCell>
                    <TableCell className="whitespace-nowrap">{money(s.paidOut, s.currency)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <AffiliateEditor key={a.updatedAt} initial={toForm(a)} submitLabel="Save changes" save={async (form) => {
        await update.mutateAsync(toBody(form));
        toast({ title: 'Saved' });
      }} />
    </div>
  );
}
