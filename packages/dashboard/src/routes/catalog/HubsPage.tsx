import type { Brand } from '@creator-commerce/sdk';
import { ShareBox } from './ShareBox.tsx';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { api, v1 } from '@/api';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import { when } from '../people/format.ts';
import { EmptyState, ErrorNote, LoadMore, Loading, PageHeader } from '../people/parts.tsx';
import { useList } from '../people/use-list.ts';
import { HubEditor } from './HubEditor.tsx';
import { emptyHubForm, hubBody, hubToForm } from './product-form.ts';
import type { Hub, HubSummary } from './types.ts';

/** The brand's hubs, newest first. */
export function HubsPage() {
  const list = useList<HubSummary>(v1('/hubs'));
  const create = <Button asChild><Link to="/catalog/hubs/new"><Plus aria-hidden /> New hub</Link></Button>;
  return (
    <div>
      <PageHeader title="Hubs" description="Membership communities: people join a hub on one of its tiers." actions={create} />
      <ErrorNote error={list.error} />
      {list.isLoading ? <Loading /> : !list.items.length && !list.error ? (
        <EmptyState title="No hubs yet" action={create}>Create a hub to sell memberships, free or paid, one-off or recurring.</EmptyState>
      ) : (
        <Table aria-label="Hubs">
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Description</TableHead>
              <TableHead>Updated</TableHead>
              <TableHead><span className="sr-only">Members</span></TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.items.map((h) => (
              <TableRow key={h.id}>
                <TableCell className="font-medium"><Link className="underline-offset-4 hover:underline" to={`/catalog/hubs/${h.id}`}>{h.name}</Link></TableCell>
                <TableCell className="max-w-md text-sm text-muted-foreground">{h.description}</TableCell>
                <TableCell className="whitespace-nowrap">{when(h.updatedAt)}</TableCell>
                <TableCell className="text-right"><Link className="text-sm text-primary underline-offset-4 hover:underline" to={`/people?hub=${h.id}`}>Members</Link></TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onClick={list.loadMore} />
    </div>
  );
}

export function HubNewPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return (
    <div>
      <PageHeader title="New hub" />
      <HubEditor initial={emptyHubForm()} submitLabel="Create hub" save={async (form) => {
        const hub = await api.post<Hub>(v1('/hubs'), hubBody(form));
        qc.invalidateQueries({ queryKey: ['list', v1('/hubs')] });
        toast({ title: `${hub.name} created` });
        navigate(`/catalog/hubs/${hub.id}`);
      }} />
    </div>
  );
}

/** One hub: edit it (read back after saving) and reach its members. */
export function HubPage() {
  const { id = '' } = useParams();
  const qc = useQueryClient();
  const key = ['hub', id];
  const hub = useQuery({ queryKey: key, queryFn: () => api.get<Hub>(v1(`/hubs/${encodeURIComponent(id)}`)) });
  // The hub's public page lives under the brand's storefront address (docs/storefront.md).
  const brand = useQuery({ queryKey: ['brand'], queryFn: () => api.get<Brand>(v1('/brand')) });
  if (hub.isPending) return <Loading />;
  if (hub.error) return <><PageHeader title="Hub" /><ErrorNote error={hub.error} /></>;
  const h = hub.data;
  return (
    <div>
      <PageHeader title={h.name} description={`A hub with ${h.tiers.length === 1 ? 'one membership tier' : `${h.tiers.length} membership tiers`}`}
        actions={<Button variant="outline" asChild><Link to={`/people?hub=${encodeURIComponent(h.id)}`}>Members</Link></Button>} />
      <HubEditor key={h.updatedAt} initial={hubToForm(h)} submitLabel="Save changes" save={async (form) => {
        await api.patch<Hub>(v1(`/hubs/${encodeURIComponent(h.id)}`), hubBody(form));
        await qc.invalidateQueries({ queryKey: key });
        qc.invalidateQueries({ queryKey: ['list', v1('/hubs')] });
        toast({ title: 'Saved' });
      }} />
      <div className="mt-6"><ShareBox ownerId={h.id} tiers={h.tiers} {...(brand.data ? { pageUrl: `${brand.data.storefrontUrl}/h/${encodeURIComponent(h.id)}` } : {})} /></div>
    </div>
  );
}
