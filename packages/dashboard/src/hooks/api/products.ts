import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomerListParams, ProductCreateParams, ProductUpdateParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey, usePagedList, type PageRequest } from './list.ts';

/** Products (`/api/v1/products`): the list, one product, its customers, and the writes that refresh them. */
export const productKeys = {
  lists: listKey('products'),
  /** The first 100, for pickers and for naming a row's product. */
  choices: listKey('products', 'first-100'),
  detail: (id: string) => ['product', id] as const,
  customers: (productId: string) => listKey('product-customers', productId),
};

export const fetchProducts = (page: PageRequest) => client.products.list(page);

export const useProducts = () => usePagedList(productKeys.lists, fetchProducts);

export const useProductChoices = () => useQuery({ queryKey: productKeys.choices, queryFn: async () => client.products.list({ limit: 100 }) });

export const useProduct = (id: string | null | undefined) =>
  useQuery({ queryKey: productKeys.detail(id ?? ''), queryFn: () => client.products.get(id ?? ''), enabled: !!id });

/** Who bought the product, newest first, with the list's filters. */
export const useProductCustomers = (productId: string, query: CustomerListParams) =>
  usePagedList([...productKeys.customers(productId), query], (page) => client.products.customers.list(productId, { ...query, ...page }));

export const fetchProductCustomers = (productId: string, query: CustomerListParams) =>
  (page: PageRequest) => client.products.customers.list(productId, { ...query, ...page });

export function useCreateProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProductCreateParams) => client.products.create(body),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: productKeys.lists }); },
  });
}

/** Saves, then reads the product back (archived tiers, derived ids, defaults) rather than trust the form. */
export function useUpdateProduct(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProductUpdateParams) => client.products.update(id, body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: productKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: productKeys.lists });
    },
  });
}
