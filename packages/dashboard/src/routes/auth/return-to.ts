import { useNavigate, useSearchParams } from 'react-router';
import { safeReturnTo } from '@/lib/format';

/**
 * Where to go after signing in: the `returnTo` the sign-in link carried (a same-origin path,
 * e.g. a dashboard page or the OAuth consent screen), or the dashboard's home.
 */
export function useReturnTo() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const target = safeReturnTo(params.get('returnTo'));
  return {
    target,
    go() {
      if (target === '/dashboard' || target.startsWith('/dashboard/')) navigate(target.slice('/dashboard'.length) || '/', { replace: true });
      else window.location.assign(target);
    },
  };
}
