import { Navigate, Outlet, type RouteObject } from 'react-router';
import { SectionTabs } from '../people/parts.tsx';
import { HubNewPage, HubPage, HubsPage } from './HubsPage.tsx';
import { DiscountNewPage, DiscountPage, DiscountsPage } from './DiscountsPage.tsx';
import { AffiliateNewPage, AffiliatePage, AffiliatesPage } from './AffiliatesPage.tsx';
import { ProductNewPage } from './ProductNewPage.tsx';
import { ProductPage } from './ProductPage.tsx';
import { ProductsPage } from './ProductsPage.tsx';

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
