import { Link, useParams } from 'react-router';
import { useProduct, useUpdateProduct } from '@/hooks/api/products';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/toast';
import { Confirm } from '@/components/confirm';
import { ErrorNote, Loading, PageHeader } from '../people/parts.tsx';
import { shapeOf } from './product-types.ts';
import { PaymentLinkBuilder } from './PaymentLinkBuilder.tsx';
import { ShareBox } from './ShareBox.tsx';
import { ProductEditor } from './ProductEditor.tsx';
import { productBody, productToForm } from './product-form.ts';
import { productStatusVariant } from './ProductsPage.tsx';

/**
 * One product: edit it (saved, then read back from `GET /products/{id}` so the form shows exactly
 * what is stored), make payment links and preview its checkout, and reach its customers.
 */
export function ProductPage() {
  const { id = '' } = useParams();
  const product = useProduct(id);
  const update = useUpdateProduct(id);

  if (product.isPending) return <Loading />;
  if (product.error) return <><PageHeader title="Product" /><ErrorNote error={product.error} /></>;
  const p = product.data;
  const setStatus = async (status: 'archived' | 'draft') => {
    await update.mutateAsync({ status });
    toast({ title: status === 'archived' ? `${p.title} archived` : `${p.title} restored as a draft` });
  };
  // Archiving takes the product off sale and out of lists but keeps it for its buyers (the API's `archived` status).
  const archive = p.status === 'archived'
    ? <Button variant="outline" onClick={() => setStatus('draft').catch((err: unknown) => toast({ title: 'Not restored', description: err instanceof Error ? err.message : String(err), variant: 'destructive' }))}>Restore</Button>
    : <Confirm trigger={<Button variant="outline">Archive</Button>} title={`Archive ${p.title}?`}
      description="It comes off sale and out of the storefront. People who bought it keep what they bought; you can restore it later as a draft."
      action="Archive product"
      onConfirm={() => { setStatus('archived').catch((err: unknown) => toast({ title: 'Not archived', description: err instanceof Error ? err.message : String(err), variant: 'destructive' })); }} />;

  return (
    <div>
      <PageHeader
        title={p.title}
        description={<span className="flex flex-wrap items-center gap-2">
          <Badge variant={productStatusVariant(p.status)}>{p.status}</Badge>
          <span>{shapeOf(p.type).label} · {p.visibility === 'public' ? 'Public' : p.visibility === 'unlisted' ? 'Unlisted' : 'Private'}</span>
        </span>}
        actions={<div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild><Link to={`/people?product=${encodeURIComponent(p.id)}`}>Customers</Link></Button>
          {archive}
        </div>}
      />
      <Tabs defaultValue="edit">
        <TabsList className="mb-4">
          <TabsTrigger value="edit">Details</TabsTrigger>
          <TabsTrigger value="share">Share</TabsTrigger>
          <TabsTrigger value="sell">Payment link</TabsTrigger>
        </TabsList>
        <TabsContent value="edit">
          <ProductEditor
            key={p.updatedAt}
            productId={p.id}
            initial={productToForm(p)}
            submitLabel="Save changes"
            save={async (form) => {
              // Saved, then read back (archived tiers, derived ids, defaults) rather than trust the form.
              await update.mutateAsync(productBody(form, 'edit'));
              toast({ title: 'Saved' });
            }}
          />
        </TabsContent>
        <TabsContent value="share">
          <ShareBox ownerId={p.id} tiers={p.tiers} addons={p.items} {...(p.status === 'published' && p.visibility !== 'private' && p.url ? { pageUrl: p.url } : {})} />
        </TabsContent>
        <TabsContent value="sell">
          <PaymentLinkBuilder key={p.updatedAt} product={p} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
