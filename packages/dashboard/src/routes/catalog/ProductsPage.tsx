import { Link } from 'react-router';
import { Plus } from 'lucide-react';
import type { ProductSummary } from '@creator-commerce/sdk';
import { v1 } from '@/api';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { CsvColumn } from '../people/csv.ts';
import { ExportCsvButton } from '../people/ExportCsvButton.tsx';
import { when } from '../people/format.ts';
import { EmptyState, ErrorNote, LoadMore, Loading, PageHeader } from '../people/parts.tsx';
import { useList } from '../people/use-list.ts';
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
  const path = v1('/products');
  const list = useList<ProductSummary>(path);
  const create = <Button asChild><Link to="/catalog/products/new"><Plus aria-hidden /> New product</Link></Button>;
  return (
    <div>
      <PageHeader
        title="Products"
        description="What you sell: courses, downloads, events, services and more, each with its tiers."
        actions={<>{create}<ExportCsvButton path={path} columns={columns} name={['products']} /></>}
      />
      <ErrorNote error={list.error} />
      {list.isLoading ? <Loading /> : !list.items.length && !list.error ? (
        <EmptyState title="No products yet" action={create}>Create your first product, give it a price, then send buyers a payment link.</EmptyState>
      ) : (
        <Table aria-label="Products">
          <TableHeader>
            <TableRow>
              <TableHead>Title</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Visibility</TableHead>
              <TableHead>Updated</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.items.map((p) => (
              <TableRow key={p.id}>
                <TableCell className="font-medium">
                  <Link className="underline-offset-4 hover:underline" to={`/catalog/products/${p.id}`}>{p.title}</Link>
                  {p.isFree && <Badge variant="outline" className="ml-2">free</Badge>}
                </TableCell>
                <TableCell>{titleCase(p.type)}</TableCell>
                <TableCell><Badge variant={productStatusVariant(p.status)}>{p.status}</Badge></TableCell>
                <TableCell>{titleCase(p.visibility)}</TableCell>
                <TableCell className="whitespace-nowrap">{when(p.updatedAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onClick={list.loadMore} />
    </div>
  );
}
