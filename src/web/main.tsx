import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './lib/api.ts';
import { OfflineBanner } from './features/shell/offline-banner.tsx';
import { AppRoutes } from './routes.tsx';
import './styles.css';

const BackgroundServices = lazy(() => import('./features/events/background-services.tsx'));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx answer will not change by asking again; network and server failures may.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
      staleTime: 10_000,
      // Offline, a read fails (and the page says so) instead of waiting unseen; the browser's return refetches it.
      networkMode: 'always',
    },
    // A money action is never held back to be sent when the network returns: offline it fails at once.
    mutations: { networkMode: 'always' },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <OfflineBanner />
        <AppRoutes />
        <Suspense fallback={null}>
          <BackgroundServices />
        </Suspense>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
