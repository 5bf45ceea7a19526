import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { AppLayout, RequireRole } from '@/components/layout/AppLayout';
import { AuthLayout } from '@/components/layout/AuthLayout';
import { Home } from '@/routes/home';
import { NotFound } from '@/routes/not-found';
import { catalogRoutes } from '@/routes/catalog/routes';
import { moneyRoutes, peopleRoutes } from '@/routes/people/routes';
import { UpcomingBookingsPage } from '@/routes/bookings/UpcomingBookingsPage';
import { SignIn } from '@/routes/auth/sign-in';
import { SignUp } from '@/routes/auth/sign-up';
import { ResetPassword } from '@/routes/auth/reset-password';
import { ForgotPassword } from '@/routes/auth/forgot-password';
import { AcceptInvite } from '@/routes/auth/accept-invite';
import { VerifyEmail } from '@/routes/auth/verify-email';
import { ChangePassword } from '@/routes/account/change-password';
import { Team } from '@/routes/team/team';
import { ApiKeys } from '@/routes/developers/api-keys';
import { Webhooks } from '@/routes/developers/webhooks';
import { WebhookDetail } from '@/routes/developers/webhook-detail';
import { Events } from '@/routes/developers/events';
import { EventDetail } from '@/routes/developers/event-detail';
import { Apps } from '@/routes/developers/apps';
import { Emails } from '@/routes/developers/emails';
import { EmailDetail } from '@/routes/developers/email-detail';
import { Settings } from '@/routes/settings/settings';

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
