import { Outlet, type RouteObject } from 'react-router';
import { lazyPage } from '@/lib/lazy-page';
import { SectionTabs } from './parts.tsx';
const CustomersPage = lazyPage(() => import('./CustomersPage.tsx'), 'CustomersPage');
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

/** `/people`: a product's customers or a hub's members (`?product=` or `?hub=`). */
export const peopleRoutes: RouteObject[] = [
  { index: true, element: <CustomersPage /> },
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
