import { Outlet, useSearchParams, type RouteObject } from 'react-router';
import { lazyPage } from '@/lib/lazy-page';
import { SectionTabs } from './parts.tsx';
const CustomersPage = lazyPage(() => import('./CustomersPage.tsx'), 'CustomersPage');
const CustomerListPage = lazyPage(() => import('./CustomerListPage.tsx'), 'CustomerListPage');
const CustomerPage = lazyPage(() => import('./CustomerPage.tsx'), 'CustomerPage');
const SubscriptionsPage = lazyPage(() => import('./SubscriptionsPage.tsx'), 'SubscriptionsPage');
const PayoutsPage = lazyPage(() => import('./PayoutsPage.tsx'), 'PayoutsPage');
const TransactionsPage = lazyPage(() => import('./TransactionsPage.tsx'), 'TransactionsPage');
const TransactionPage = lazyPage(() => import('./TransactionPage.tsx'), 'TransactionPage');
const PayoutPage = lazyPage(() => import('./PayoutPage.tsx'), 'PayoutPage');

function MoneySection() {
  return (
    <>
      <SectionTabs label="Money" links={[{ to: '/money', label: 'Transactions', end: true }, { to: '/money/payouts', label: 'Payouts' }]} />
      <Outlet />
    </>
  );
}

function PeopleSection() {
  return (
    <>
      <SectionTabs label="People" links={[
        { to: '/people', label: 'Customers', end: true },
        { to: '/people/subscriptions', label: 'Subscriptions' },
        { to: '/people/by-product', label: 'By product' },
      ]} />
      <Outlet />
    </>
  );
}

/** `/people`: everyone; with `?product=` or `?hub=` (the catalog pages' links), that product's customers or hub's members. */
function PeopleIndex() {
  const [params] = useSearchParams();
  return params.has('product') || params.has('hub') ? <CustomersPage /> : <CustomerListPage />;
}

/** `/people`: customers, subscriptions, and one product's or hub's members; `/people/customers/:id`, one person. */
export const peopleRoutes: RouteObject[] = [
  {
    element: <PeopleSection />,
    children: [
      { index: true, element: <PeopleIndex /> },
      { path: 'subscriptions', element: <SubscriptionsPage /> },
      { path: 'by-product', element: <CustomersPage /> },
    ],
  },
  { path: 'customers/:id', element: <CustomerPage /> },
];

/** `/money`: transactions and payouts. */
export const moneyRoutes: RouteObject[] = [
  {
    element: <MoneySection />,
    children: [
      { index: true, element: <TransactionsPage /> },
      { path: 'payouts', element: <PayoutsPage /> },
    ],
  },
  { path: 'transactions/:txref', element: <TransactionPage /> },
  { path: 'payouts/:id', element: <PayoutPage /> },
];
