import { Navigate } from 'react-router';
import { homeFor } from '@/components/layout/nav';
import { useCurrentSession } from '@/lib/session';

/** `/dashboard/` opens the first page the user's role may see. */
export function Home() {
  const session = useCurrentSession();
  return <Navigate to={homeFor(session.brand.role)} replace />;
}
