import { Navigate, Outlet, type RouteObject } from 'react-router';
import { lazyPage } from '@/lib/lazy-page';
import { SectionTabs } from '../people/parts.tsx';
const HubNewPage = lazyPage(() => import('./HubsPage.tsx'), 'HubNewPage');
const HubPage = lazyPage(() => import('./HubsPage.tsx'), 'HubPage');
const HubsPage = lazyPage(() => import('./HubsPage.tsx'), 'HubsPage');
const ProductNewPage = lazyPage(() => import('./ProductNewPage.tsx'), 'ProductNewPage');
const ProductPage = lazyPage(() => import('./ProductPage.tsx'), 'ProductPage');
const ProductsPage = lazyPage(() => import('./ProductsPage.tsx'), 'ProductsPage');

function CatalogSection() {
  return (
    <>
      <SectionTabs label="Catalog" links={[{ to: '/catalog/products', label: 'Products' }, { to: '/catalog/hubs', label: 'Hubs' }]} />
      <Outlet />
    </>
  );
}

/** `/catalog`: products and hubs, each listed, created and edited. */
export const catalogRoutes: RouteObject[] = [
  {
    element: <CatalogSection />,
    children: [
      { index: true, element: <Navigate to="/catalog/products" replace /> },
      { path: 'products', element: <ProductsPage /> },
      { path: 'products/new', element: <ProductNewPage /> },
      { path: 'products/:id', element: <ProductPage /> },
      { path: 'hubs', element: <HubsPage /> },
      { path: 'hubs/new', element: <HubNewPage /> },
      { path: 'hubs/:id', element: <HubPage /> },
    ],
  },
];
