import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { ApiError } from '@/api';
import { Toaster } from '@/components/ui/toast';
import { router } from '@/App';
import { prefetchSession } from '@/lib/session';
import './index.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a network hiccup or 5xx might.
      retry: (count, err) => count < 2 && !(err instanceof ApiError && (err.status ?? 0) >= 400 && (err.status ?? 0) < 500),
      refetchOnWindowFocus: false,
    },
  },
});

void prefetchSession(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
