import { useEffect } from 'react';
import { textOrEnglish } from '../../lib/i18n/text-or-english.ts';

/** A lazily loaded page's file could not be fetched (offline, or a new release replaced it). */
function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i.test(error.message);
}

export interface RouteErrorMessageProps {
  error: unknown;
  /** Clears the boundary's error so that the page renders again. */
  onRenderAnew: () => void;
}

/**
 * What a page that failed shows instead of a white screen (its boundary is route-error-boundary.tsx). Try again
 * renders the page anew; for a file that failed to load it reloads the page, which fetches the file again (React
 * keeps a failed lazy import failed). While offline the reload waits for the network and happens by itself when it returns.
 */
export function RouteErrorMessage({ error, onRenderAnew }: RouteErrorMessageProps) {
  const chunkLoadFailed = isChunkLoadError(error);
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  const retry = () => {
    if (!chunkLoadFailed) onRenderAnew();
    else if (navigator.onLine) window.location.reload();
  };

  useEffect(() => {
    if (!chunkLoadFailed) return;
    const reload = () => window.location.reload();
    window.addEventListener('online', reload, { once: true });
    return () => window.removeEventListener('online', reload);
  }, [chunkLoadFailed]);

  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <div role="alert" className="flex w-full max-w-md flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{textOrEnglish('shell.somethingWentWrong', 'Something went wrong')}</h1>
        <p className="text-sm text-slate-600">
          {offline
            ? textOrEnglish('shell.offlineWillLoad', 'You are offline. This page will load by itself when the connection is back.')
            : textOrEnglish('shell.pageFailed', 'This page could not be shown. Please try again.')}
        </p>
        <button
          type="button"
          onClick={retry}
          className="inline-flex h-11 items-center justify-center rounded-lg bg-brand-700 px-5 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {textOrEnglish('shell.tryAgain', 'Try again')}
        </button>
        <a href="/dashboard" className="text-sm font-medium text-brand-700 underline">
          {textOrEnglish('shell.goHome', 'Go to Home')}
        </a>
      </div>
    </div>
  );
}
