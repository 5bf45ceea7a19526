import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '@/components/page';

/** The signed-out pages: one centred card, readable on a phone. */
export function AuthLayout() {
  return (
    <main className="flex min-h-dvh items-start justify-center bg-muted/40 px-4 py-10 sm:items-center">
      <div className="w-full max-w-sm">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </div>
    </main>
  );
}
