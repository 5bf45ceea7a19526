import { Link, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Product } from '@creator-commerce/sdk';
import { api, v1 } from '@/api';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/toast';
import { ErrorNote, Loading, PageHeader } from '../people/parts.tsx';
import { titleCase } from './fields.tsx';
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
  const qc = useQueryClient();
  const key = ['product', id];
  const product = useQuery({ queryKey: key, queryFn: () => api.get<Product & { hubID?: string }>(v1(`/products/${encodeURIComponent(id)}`)) });

  if (product.isPending) return <Loading />;
  if (product.error) return <><PageHeader title="Product" /><ErrorNote error={product.error} /></>;
  const p = product.data;

  return (
    <div>
      <PageHeader
        title={p.title}
        description={<span className="flex flex-wrap items-center gap-2">
          <Badge variant={productStatusVariant(p.status)}>{p.status}</Badge>
          <span>{titleCase(p.type)} · {titleCase(p.visibility)}</span>
          <code className="text-xs">{p.id}</code>
        </span>}
        actions={<Button variant="outline" asChild><Link to={`/people?product=${encodeURIComponent(p.id)}`}>Customers</Link></Button>}
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
              await api.patch<Product>(v1(`/products/${encodeURIComponent(p.id)}`), productBody(form, 'edit'));
              // Read back what was stored (archived tiers, derived ids, defaults) rather than trust the form.
              await qc.invalidateQueries({ queryKey: key });
              qc.invalidateQueries({ queryKey: ['list', v1('/products')] });
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
