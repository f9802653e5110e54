import { Component, type ErrorInfo, type ReactNode } from 'react';

/** A lazily loaded page's file could not be fetched (offline, or a new release replaced it). */
function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i.test(error.message);
}

interface State {
  error: unknown;
}

/**
 * Around each route (keyed by its path): a page that throws, or whose file cannot be loaded,
 * shows "Something went wrong" with Try again instead of leaving the screen white. Try again
 * renders the page anew; for a file that failed to load it reloads the page, which fetches the
 * file again (React keeps a failed lazy import failed). While offline the reload waits for the
 * network and happens by itself when it returns.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A page failed', error, info.componentStack);
  }

  override componentDidUpdate(): void {
    if (this.state.error !== null && isChunkLoadError(this.state.error)) window.addEventListener('online', this.retry, { once: true });
  }

  override componentWillUnmount(): void {
    window.removeEventListener('online', this.retry);
  }

  private readonly retry = () => {
    if (isChunkLoadError(this.state.error)) {
      if (navigator.onLine) window.location.reload();
      return;
    }
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    const offline = typeof navigator !== 'undefined' && !navigator.onLine;
    return (
      <div className="flex min-h-screen items-center justify-center p-4">
        <div role="alert" className="flex w-full max-w-md flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
          <h1 className="text-xl font-semibold text-slate-900">Something went wrong</h1>
          <p className="text-sm text-slate-600">
            {offline ? 'You are offline. This page will load by itself when the connection is back.' : 'This page could not be shown. Please try again.'}
          </p>
          <button
            type="button"
            onClick={this.retry}
            className="inline-flex h-11 items-center justify-center rounded-lg bg-brand-700 px-5 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            Try again
          </button>
          <a href="/dashboard" className="text-sm font-medium text-brand-700 underline">
            Go to Home
          </a>
        </div>
      </div>
    );
  }
}
