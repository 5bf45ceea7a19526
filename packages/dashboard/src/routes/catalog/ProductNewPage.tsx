import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Product } from '@creator-commerce/sdk';
import { api, v1 } from '@/api';
import { toast } from '@/components/ui/toast';
import { PageHeader } from '../people/parts.tsx';
import { ProductEditor } from './ProductEditor.tsx';
import { emptyProductForm, productBody } from './product-form.ts';

export function ProductNewPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return (
    <div>
      <PageHeader title="New product" description="Fill in what buyers see, at least one tier, and any questions to ask at checkout." />
      <ProductEditor
        initial={emptyProductForm()}
        submitLabel="Create product"
        save={async (form) => {
          const created = await api.post<Product>(v1('/products'), productBody(form, 'create'));
          qc.invalidateQueries({ queryKey: ['list', v1('/products')] });
          toast({ title: `${created.title} created` });
          navigate(`/catalog/products/${created.id}`);
        }}
      />
    </div>
  );
}
