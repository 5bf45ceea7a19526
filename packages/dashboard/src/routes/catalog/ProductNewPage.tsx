import { useNavigate } from 'react-router';
import { useCreateProduct } from '@/hooks/api/products';
import { toast } from '@/components/ui/toast';
import { PageHeader } from '../people/parts.tsx';
import { ProductEditor } from './ProductEditor.tsx';
import { emptyProductForm, productBody } from './product-form.ts';

export function ProductNewPage() {
  const navigate = useNavigate();
  const create = useCreateProduct();
  return (
    <div>
      <PageHeader title="New product" description="Fill in what buyers see, at least one tier, and any questions to ask at checkout." />
      <ProductEditor
        initial={emptyProductForm()}
        submitLabel="Create product"
        save={async (form) => {
          const created = await create.mutateAsync(productBody(form, 'create'));
          toast({ title: `${created.title} created` });
          navigate(`/catalog/products/${created.id}`);
        }}
      />
    </div>
  );
}
