import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './lib/api.ts';
import { languageReady } from './lib/i18n/i18n.ts';
import { AppRoutes } from './routes.tsx';
import './styles.css';

const BackgroundServices = lazy(() => Promise.all([import('./features/events/background-services.tsx'), languageReady('page')]).then(([module]) => module));
// Loaded right after the first render, while the network is still there, and kept out of the landing page's budgeted first
// JavaScript. Should its file still fail to load, the app goes on without the banner rather than failing whole.
const OfflineBanner = lazy(() =>
  Promise.all([import('./features/shell/offline-banner.tsx'), languageReady('page')])
    .then(([module]) => module)
    .then(
      (module) => ({ default: module.OfflineBanner }),
      () => ({ default: NoOfflineBanner }),
    ),
);
function NoOfflineBanner() {
  return null;
}

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

// A transition, so that React yields to the browser while it renders the first page: a phone stays responsive
// (Lighthouse's blocking time) while the page the server drew (decision 065) is already in view.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Suspense fallback={null}>
            <OfflineBanner />
          </Suspense>
          <AppRoutes />
          <Suspense fallback={null}>
            <BackgroundServices />
          </Suspense>
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
