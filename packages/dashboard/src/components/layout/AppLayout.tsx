import { Suspense, useEffect, useRef } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { ApiError, type Role } from '@/api';
import { useSession } from '@/lib/session';
import { LoadError, Loading } from '@/components/page';
import { cn } from '@/lib/utils';
import { Header } from './Header';
import { TestModeBand } from './TestModeBand';
import { navSections } from './nav';

/**
 * The signed-in shell: the test-mode band, the header (brand, test/live toggle, account menu),
 * the navigation for the user's role, and the page. Nobody signed in → the sign-in page, which
 * returns here afterwards.
 */
export function AppLayout() {
  const session = useSession();
  const location = useLocation();
  const navList = useRef<HTMLUListElement>(null);
  // On a phone the navigation is one sideways-scrolling row: keep the current page's entry in view.
  useEffect(() => {
    const list = navList.current;
    const active = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (list && active && list.scrollWidth > list.clientWidth) {
      const from = list.getBoundingClientRect();
      const item = active.getBoundingClientRect();
      list.scrollLeft += item.left - from.left - (from.width - item.width) / 2;
    }
  }, [location.pathname, session.data]);
  if (session.isPending) return <div className="p-6"><Loading /></div>;
  if (session.error) {
    if (session.error instanceof ApiError && session.error.status === 401) {
      const returnTo = `/dashboard${location.pathname}${location.search}`;
      return <Navigate to={`/signin?returnTo=${encodeURIComponent(returnTo)}`} replace />;
    }
    return <div className="p-6"><LoadError error={session.error} /></div>;
  }
  const { role } = session.data.brand;
  const sections = navSections.filter((s) => s.roles.includes(role));
  return (
    <div className="flex min-h-dvh flex-col">
      {session.data.mode === 'test' && <TestModeBand />}
      <Header session={session.data} />
      <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col md:flex-row">
        <nav aria-label="Main" className="border-b md:w-56 md:shrink-0 md:border-r md:border-b-0">
          <ul ref={navList} className="flex gap-1 overflow-x-auto px-3 py-2 md:flex-col md:overflow-visible md:px-3 md:py-4">
            {sections.map((section, i) => (
              <li key={i} className="flex shrink-0 gap-1 md:flex-col md:pb-3">
                {section.label && (
                  <span className="hidden px-3 pt-1 pb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase md:block">{section.label}</span>
                )}
                {section.items.map((item) => (
                  <NavLink
                    key={item.to}
                    to={item.to}
                    end={item.to === '/'}
                    className={({ isActive }) => cn(
                      'flex items-center gap-2 rounded-md px-3 py-2 text-sm whitespace-nowrap outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50',
                      isActive && 'bg-accent font-medium',
                    )}
                  >
                    <item.icon className="size-4 text-muted-foreground" aria-hidden />
                    {item.label}
                  </NavLink>
                ))}
              </li>
            ))}
          </ul>
        </nav>
        <main className="min-w-0 flex-1 px-4 py-6 md:px-8">
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}

/** A page only some roles may open (developers see only developer settings). */
export function RequireRole({ roles, children }: { roles: Role[]; children: React.ReactNode }) {
  const session = useSession();
  if (session.data && !roles.includes(session.data.brand.role)) return <Navigate to="/" replace />;
  return children;
}
