import { Link, useNavigate, useParams } from 'react-router';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { EmptyState, ErrorNote, ListView } from '@/components/list-view';
import { Loading, PageHeader } from '@/components/page';
import { useBrand } from '@/hooks/api/brand';
import { useCreateHub, useHub, useHubs, useUpdateHub } from '@/hooks/api/hubs';
import { formatDate } from '@/lib/format';
import { HubEditor } from './HubEditor.tsx';
import { ShareBox } from './ShareBox.tsx';
import { emptyHubForm, hubBody, hubToForm } from './product-form.ts';

/** The brand's hubs, newest first. */
export function HubsPage() {
  const list = useHubs();
  const create = <Button asChild><Link to="/catalog/hubs/new"><Plus aria-hidden /> New hub</Link></Button>;
  return (
    <div>
      <PageHeader title="Hubs" description="Membership communities: people join a hub on one of its tiers." actions={create} />
      <ListView
        list={list}
        label="Hubs"
        rowKey={(h) => h.id}
        empty={<EmptyState title="No hubs yet" action={create}>Create a hub to sell memberships, free or paid, one-off or recurring.</EmptyState>}
        columns={[
          { header: 'Name', className: 'font-medium', cell: (h) => <Link className="underline-offset-4 hover:underline" to={`/catalog/hubs/${h.id}`}>{h.name}</Link> },
          { header: 'Description', className: 'max-w-md text-sm text-muted-foreground', cell: (h) => h.description },
          { header: 'Updated', className: 'whitespace-nowrap', cell: (h) => formatDate(h.updatedAt, '') },
          { header: <span className="sr-only">Members</span>, className: 'text-right', cell: (h) => <Link className="text-sm text-primary underline-offset-4 hover:underline" to={`/people?hub=${h.id}`}>Members</Link> },
        ]}
      />
    </div>
  );
}

export function HubNewPage() {
  const navigate = useNavigate();
  const create = useCreateHub();
  return (
    <div>
      <PageHeader title="New hub" />
      <HubEditor initial={emptyHubForm()} submitLabel="Create hub" save={async (form) => {
        const hub = await create.mutateAsync(hubBody(form));
        toast({ title: `${hub.name} created` });
        navigate(`/catalog/hubs/${hub.id}`);
      }} />
    </div>
  );
}

/** One hub: edit it (read back after saving) and reach its members. */
export function HubPage() {
  const { id = '' } = useParams();
  const hub = useHub(id);
  const update = useUpdateHub(id);
  // The hub's public page lives under the brand's storefront address (docs/storefront.md).
  const brand = useBrand();
  if (hub.isPending) return <Loading />;
  if (hub.error) return <><PageHeader title="Hub" /><ErrorNote error={hub.error} /></>;
  const h = hub.data;
  return (
    <div>
      <PageHeader title={h.name} description={`A hub with ${h.tiers.length === 1 ? 'one membership tier' : `${h.tiers.length} membership tiers`}`}
        actions={<Button variant="outline" asChild><Link to={`/people?hub=${encodeURIComponent(h.id)}`}>Members</Link></Button>} />
      <HubEditor key={h.updatedAt} initial={hubToForm(h)} submitLabel="Save changes" save={async (form) => {
        await update.mutateAsync(hubBody(form));
        toast({ title: 'Saved' });
      }} />
      <div className="mt-6"><ShareBox ownerId={h.id} tiers={h.tiers} {...(brand.data ? { pageUrl: `${brand.data.storefrontUrl}/h/${encodeURIComponent(h.id)}` } : {})} /></div>
    </div>
  );
}
