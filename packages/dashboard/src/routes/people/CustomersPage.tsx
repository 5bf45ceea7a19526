import { Link, useSearchParams } from 'react-router';
import { useHub, useHubChoices } from '@/hooks/api/hubs';
import { useProduct, useProductChoices } from '@/hooks/api/products';
import { Label } from '@/components/ui/label';
import * as SelectPrimitive from '@radix-ui/react-select';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { MembershipList } from './MembershipList.tsx';
import { EmptyState, ErrorNote, Loading, PageHeader } from './parts.tsx';

/**
 * People: pick a product (its customers) or a hub (its members). The choice lives in the URL
 * (`?product=prod_…` or `?hub=hub_…`), so a product's page links straight to its customers.
 */
export function CustomersPage() {
  const [params, setParams] = useSearchParams();
  const productId = params.get('product');
  const hubId = params.get('hub');
  const products = useProductChoices();
  const hubs = useHubChoices();
  const product = useProduct(productId);
  const hub = useHub(hubId);

  const value = productId ? `product:${productId}` : hubId ? `hub:${hubId}` : '';
  const choose = (v: string) => {
    const [kind, id] = v.split(':');
    setParams(kind === 'hub' ? { hub: id } : { product: id });
  };
  const owner = productId ? product : hub;
  const ownerData = productId ? product.data : hub.data;
  const planNames = new Map((ownerData?.tiers ?? []).map((t) => [t.id, t.name] as [string, string]));
  const nothing = products.data && !products.data.items.length && !hubs.data?.items.length;

  return (
    <div>
      {/* Titled after what it shows once a product or hub is chosen ("Customers of Brush course"), so tabs can be told apart. */}
      <PageHeader
        title={ownerData ? `${productId ? 'Customers of' : 'Members of'} ${'title' in ownerData ? ownerData.title : ownerData.name}` : 'Customers and members'}
        description="Who bought a product or belongs to a hub, in the current mode."
      />
      <div className="mb-6 max-w-md space-y-1.5">
        <Label htmlFor="people-owner">Product or hub</Label>
        <Select value={value} onValueChange={choose}>
          <SelectTrigger id="people-owner" className="w-full"><SelectValue placeholder="Choose a product or hub" /></SelectTrigger>
          <SelectContent>
            {!!products.data?.items.length && (
              <SelectPrimitive.Group>
                <SelectPrimitive.Label className="px-2 py-1.5 text-xs font-medium text-muted-foreground">Products</SelectPrimitive.Label>
                {products.data.items.map((p) => <SelectItem key={p.id} value={`product:${p.id}`}>{p.title}</SelectItem>)}
              </SelectPrimitive.Group>
            )}
            {!!hubs.data?.items.length && (
              <SelectPrimitive.Group>
                <SelectPrimitive.Label className="px-2 py-1.5 text-xs font-medium text-muted-foreground">Hubs</SelectPrimitive.Label>
                {hubs.data.items.map((h) => <SelectItem key={h.id} value={`hub:${h.id}`}>{h.name}</SelectItem>)}
              </SelectPrimitive.Group>
            )}
          </SelectContent>
        </Select>
      </div>
      <ErrorNote error={products.error} />
      {nothing && (
        <EmptyState title="No products or hubs yet" action={<Link className="text-primary underline" to="/catalog/products/new">Create a product</Link>}>
          Customers appear once you have something to sell.
        </EmptyState>
      )}
      {(productId || hubId) && (owner.isPending ? <Loading /> : owner.error ? <ErrorNote error={owner.error} /> : ownerData && (
        <>
          <p className="mb-3 text-sm">
            {productId ? 'The product' : 'The hub'} in the catalog:{' '}
            <Link className="text-primary underline-offset-4 hover:underline" to={productId ? `/catalog/products/${productId}` : `/catalog/hubs/${hubId}`}>
              {'title' in ownerData ? ownerData.title : ownerData.name}
            </Link>
          </p>
          <MembershipList
            key={value}
            kind={productId ? 'product' : 'hub'}
            ownerId={(productId ?? hubId)!}
            ownerName={'title' in ownerData ? ownerData.title : ownerData.name}
            planNames={planNames}
          />
        </>
      ))}
    </div>
  );
}
