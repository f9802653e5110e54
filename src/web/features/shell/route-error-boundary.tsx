import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { translate } from '../../lib/i18n/i18n.ts';
import { prerenderedPage } from '../../lib/prerendered-page.ts';

/**
 * The message and its retry logic live in their own file, kept out of the landing page's budgeted first JavaScript:
 * every boundary asks for it as it mounts (the browser fetches a module once), so it is already here when a page
 * fails, even offline. Should even that file fail to load, a plain message whose button reloads the page stands in.
 */
const loadRouteErrorMessage = () =>
  import('./route-error-message.tsx').then(
    (module) => ({ default: module.RouteErrorMessage }),
    () => ({ default: PlainRouteErrorMessage }),
  );

function PlainRouteErrorMessage() {
  return (
    <p role="alert">
      {translate('app.somethingWentWrong')}{' '}
      <button type="button" onClick={() => window.location.reload()}>
        {translate('app.tryAgain')}
      </button>
    </p>
  );
}

const RouteErrorMessage = lazy(loadRouteErrorMessage);

interface State {
  error: unknown;
}

/**
 * Around each route (keyed by its path): a page that throws, or whose file cannot be loaded,
 * shows "Something went wrong" with Try again instead of leaving the screen white
 * (route-error-message.tsx says how Try again recovers).
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A page failed', error, info.componentStack);
    // The page the server sent drawn (if it still shows) must not hide the error.
    prerenderedPage()?.remove();
  }

  override componentDidMount(): void {
    void loadRouteErrorMessage();
  }

  private readonly renderAnew = () => this.setState({ error: null });

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return (
      <Suspense fallback={null}>
        <RouteErrorMessage error={this.state.error} onRenderAnew={this.renderAnew} />
      </Suspense>
    );
  }
}
