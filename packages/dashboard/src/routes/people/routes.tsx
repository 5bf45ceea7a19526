import { Outlet, type RouteObject } from 'react-router';
import { CustomersPage } from './CustomersPage.tsx';
import { SectionTabs } from './parts.tsx';
import { PayoutsPage } from './PayoutsPage.tsx';
import { TransactionsPage } from './TransactionsPage.tsx';

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
];
