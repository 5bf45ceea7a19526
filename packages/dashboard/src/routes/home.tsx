import { Navigate } from 'react-router';
import { homeFor } from '@/components/layout/nav';
import { useCurrentSession } from '@/lib/session';
import { HomePage } from '@/routes/home/HomePage';

/** `/dashboard/`: the owner's home (numbers and setup); other roles open the first page they may see. */
export function Home() {
  const session = useCurrentSession();
  if (session.brand.role === 'owner') return <HomePage />;
  return <Navigate to={homeFor(session.brand.role)} replace />;
}
