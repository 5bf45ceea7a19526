import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { AppLayout, RequireRole } from '@/components/layout/AppLayout';
import { AuthLayout } from '@/components/layout/AuthLayout';
import { lazyPage } from '@/lib/lazy-page';
import { Home } from '@/routes/home';
import { NotFound } from '@/routes/not-found';
import { catalogRoutes } from '@/routes/catalog/routes';
import { moneyRoutes, peopleRoutes } from '@/routes/people/routes';
import { UpcomingBookingsPage } from '@/routes/bookings/UpcomingBookingsPage';
import { FulfilmentQueuePage } from '@/routes/orders/FulfilmentQueuePage';
import { PackingSlipPage } from '@/routes/orders/PackingSlipPage';
import { SignIn } from '@/routes/auth/sign-in';
const SignUp = lazyPage(() => import('@/routes/auth/sign-up'), 'SignUp');
const ResetPassword = lazyPage(() => import('@/routes/auth/reset-password'), 'ResetPassword');
const ForgotPassword = lazyPage(() => import('@/routes/auth/forgot-password'), 'ForgotPassword');
const AcceptInvite = lazyPage(() => import('@/routes/auth/accept-invite'), 'AcceptInvite');
const VerifyEmail = lazyPage(() => import('@/routes/auth/verify-email'), 'VerifyEmail');
const ChangePassword = lazyPage(() => import('@/routes/account/change-password'), 'ChangePassword');
const Team = lazyPage(() => import('@/routes/team/team'), 'Team');
const ApiKeys = lazyPage(() => import('@/routes/developers/api-keys'), 'ApiKeys');
const Webhooks = lazyPage(() => import('@/routes/developers/webhooks'), 'Webhooks');
const WebhookDetail = lazyPage(() => import('@/routes/developers/webhook-detail'), 'WebhookDetail');
const Events = lazyPage(() => import('@/routes/developers/events'), 'Events');
const EventDetail = lazyPage(() => import('@/routes/developers/event-detail'), 'EventDetail');
const Apps = lazyPage(() => import('@/routes/developers/apps'), 'Apps');
const Emails = lazyPage(() => import('@/routes/developers/emails'), 'Emails');
const EmailDetail = lazyPage(() => import('@/routes/developers/email-detail'), 'EmailDetail');
const Settings = lazyPage(() => import('@/routes/settings/settings'), 'Settings');

const owner = (element: React.ReactNode) => <RequireRole roles={['owner']}>{element}</RequireRole>;

/**
 * Every page of the dashboard, under the server's `/dashboard` base. Signed-out pages use the
 * auth layout; everything else needs a session (AppLayout sends visitors to sign in). Catalog,
 * People and Money pages are owned by src/routes/catalog and src/routes/people.
 */
export const routes: RouteObject[] = [
  {
    element: <AuthLayout />,
    children: [
      { path: 'signin', element: <SignIn /> },
      { path: 'sign-in', element: <Navigate to={{ pathname: '/signin', search: window.location.search }} replace /> },
      { path: 'signup', element: <SignUp /> },
      { path: 'reset-password', element: <ResetPassword /> },
      { path: 'forgot-password', element: <ForgotPassword /> },
      { path: 'invite', element: <AcceptInvite /> },
      { path: 'verify-email', element: <VerifyEmail /> },
    ],
  },
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'catalog', element: owner(<Outlet />), children: catalogRoutes },
      { path: 'people', element: owner(<Outlet />), children: peopleRoutes },
      { path: 'money', element: owner(<Outlet />), children: moneyRoutes },
      { path: 'bookings', element: owner(<UpcomingBookingsPage />) },
      { path: 'orders', element: owner(<FulfilmentQueuePage />) },
      { path: 'orders/:txref/packing-slip', element: owner(<PackingSlipPage />) },
      { path: 'developers', element: <Navigate to="/developers/api-keys" replace /> },
      { path: 'developers/api-keys', element: <ApiKeys /> },
      { path: 'developers/webhooks', element: <Webhooks /> },
      { path: 'developers/webhooks/:id', element: <WebhookDetail /> },
      { path: 'developers/events', element: <Events /> },
      { path: 'developers/events/:id', element: <EventDetail /> },
      { path: 'developers/apps', element: <Apps /> },
      { path: 'developers/emails', element: <Emails /> },
      { path: 'developers/emails/:id', element: <EmailDetail /> },
      { path: 'team', element: owner(<Team />) },
      { path: 'settings', element: owner(<Settings />) },
      { path: 'account/password', element: <ChangePassword /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/dashboard' });
