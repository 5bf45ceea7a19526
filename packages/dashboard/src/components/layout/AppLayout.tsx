import { Suspense, useEffect, useState } from 'react';
import { Menu, X } from 'lucide-react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { ApiError, type Role } from '@/api';
import { useSession } from '@/lib/session';
import { LoadError, Loading } from '@/components/page';
import { cn } from '@/lib/utils';
import { Header } from './Header';
import { TestModeBand } from './TestModeBand';
import { VerifyEmailBanner } from './VerifyEmailBanner';
import { navSections } from './nav';

/**
 * The signed-in shell: the test-mode band, the header (brand, test/live toggle, account menu),
 * the navigation for the user's role, and the page. Nobody signed in → the sign-in page, which
 * returns here afterwards.
 */
export function AppLayout() {
  const session = useSession();
  const location = useLocation();
  // On a phone the navigation is a Menu button that opens the full list (a sideways strip cut
  // pages off mid-word); it closes again when a page is chosen.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);
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
          <button type="button" className="flex w-full items-center gap-2 px-4 py-2 text-sm font-medium md:hidden" aria-expanded={menuOpen} aria-controls="main-nav-list"
            onClick={() => setMenuOpen((open) => !open)}>
            {menuOpen ? <X className="size-4" aria-hidden /> : <Menu className="size-4" aria-hidden />}
            Menu
          </button>
          <ul id="main-nav-list" className={cn('flex-col gap-1 px-3 pb-3 md:flex md:px-3 md:py-4', menuOpen ? 'flex' : 'hidden')}>
            {sections.map((section, i) => (
              <li key={i} className="flex shrink-0 flex-col gap-1 pb-3">
                {section.label && (
                  <span className="px-3 pt-1 pb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">{section.label}</span>
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
          <VerifyEmailBanner />
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
