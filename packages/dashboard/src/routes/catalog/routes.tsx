import { Navigate, Outlet, type RouteObject } from 'react-router';
import { lazyPage } from '@/lib/lazy-page';
import { SectionTabs } from '../people/parts.tsx';
const HubNewPage = lazyPage(() => import('./HubsPage.tsx'), 'HubNewPage');
const HubPage = lazyPage(() => import('./HubsPage.tsx'), 'HubPage');
const HubsPage = lazyPage(() => import('./HubsPage.tsx'), 'HubsPage');
const ProductNewPage = lazyPage(() => import('./ProductNewPage.tsx'), 'ProductNewPage');
const ProductPage = lazyPage(() => import('./ProductPage.tsx'), 'ProductPage');
const ProductsPage = lazyPage(() => import('./ProductsPage.tsx'), 'ProductsPage');
const DiscountNewPage = lazyPage(() => import('./DiscountsPage.tsx'), 'DiscountNewPage');
const DiscountPage = lazyPage(() => import('./DiscountsPage.tsx'), 'DiscountPage');
const DiscountsPage = lazyPage(() => import('./DiscountsPage.tsx'), 'DiscountsPage');
const AffiliateNewPage = lazyPage(() => import('./AffiliatesPage.tsx'), 'AffiliateNewPage');
const AffiliatePage = lazyPage(() => import('./AffiliatesPage.tsx'), 'AffiliatePage');
const AffiliatesPage = lazyPage(() => import('./AffiliatesPage.tsx'), 'AffiliatesPage');

function CatalogSection() {
  return (
    <>
      <SectionTabs label="Catalog" links={[{ to: '/catalog/products', label: 'Products' }, { to: '/catalog/hubs', label: 'Hubs' }, { to: '/catalog/discounts', label: 'Discounts' }, { to: '/catalog/affiliates', label: 'Affiliates' }]} />
      <Outlet />
    </>
  );
}

/** `/catalog`: products, hubs and discounts (coupons), each listed, created and edited. */
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
      { path: 'discounts', element: <DiscountsPage /> },
      { path: 'discounts/new', element: <DiscountNewPage /> },
      { path: 'discounts/:id', element: <DiscountPage /> },
      { path: 'affiliates', element: <AffiliatesPage /> },
      { path: 'affiliates/new', element: <AffiliateNewPage /> },
      { path: 'affiliates/:id', element: <AffiliatePage /> },
    ],
  },
];
