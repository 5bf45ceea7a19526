import { Link } from 'react-router';
import { Plus } from 'lucide-react';
import type { ProductSummary } from '@creator-commerce/sdk';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState, ExportCsvButton, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { fetchProducts, useProducts } from '@/hooks/api/products';
import type { CsvColumn } from '@/lib/csv';
import { formatDate } from '@/lib/format';
import { titleCase } from './fields.tsx';

const columns: CsvColumn<ProductSummary>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'title', value: (p) => p.title },
  { header: 'type', value: (p) => p.type },
  { header: 'status', value: (p) => p.status },
  { header: 'visibility', value: (p) => p.visibility },
  { header: 'isFree', value: (p) => p.isFree },
  { header: 'keywords', value: (p) => p.keywords.join(', ') },
  { header: 'createdAt', value: (p) => p.createdAt },
  { header: 'updatedAt', value: (p) => p.updatedAt },
];

export const productStatusVariant = (s: string) => (s === 'published' ? 'success' : s === 'draft' ? 'warning' : 'secondary') as 'success' | 'warning' | 'secondary';

/** Every product of the brand, newest first. */
export function ProductsPage() {
  const list = useProducts();
  const create = <Button asChild><Link to="/catalog/products/new"><Plus aria-hidden /> New product</Link></Button>;
  return (
    <div>
      <PageHeader
        title="Products"
        description="What you sell: courses, downloads, events, services and more, each with its tiers."
        actions={<>{create}<ExportCsvButton fetchPage={fetchProducts} columns={columns} name={['products']} /></>}
      />
      <ListView
        list={list}
        label="Products"
        rowKey={(p) => p.id}
        empty={<EmptyState title="No products yet" action={create}>Create your first product, give it a price, then send buyers a payment link.</EmptyState>}
        columns={[
          { header: 'Title', className: 'font-medium', cell: (p) => <>
            <Link className="underline-offset-4 hover:underline" to={`/catalog/products/${p.id}`}>{p.title}</Link>
            {p.isFree && <Badge variant="outline" className="ml-2">free</Badge>}
          </> },
          { header: 'Type', cell: (p) => titleCase(p.type) },
          { header: 'Status', cell: (p) => <Badge variant={productStatusVariant(p.status)}>{p.status}</Badge> },
          { header: 'Visibility', cell: (p) => titleCase(p.visibility) },
          { header: 'Updated', className: 'whitespace-nowrap', cell: (p) => formatDate(p.updatedAt, '') },
        ]}
      />
    </div>
  );
}
