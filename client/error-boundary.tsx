/**
 * The boundaries the router puts around segments. Router signals pass through error
 * boundaries untouched and are handled by signal boundaries:
 * - `SegmentErrorBoundary`, an `error.tsx`: catches errors of its segment and below, gives the
 *   fallback `error` and `reset()`, and resets when the pathname changes; it also shows
 *   a loader's error the server caught for it (`serverDigest`), where `reset()` refreshes;
 * - `SignalBoundary`, a `not-found.tsx` (and one at the root): renders it for `notFound()`, and
 *   turns `redirect()` into a client navigation; resets when the pathname changes;
 * - `AppErrorBoundary`, above the root layout: the plain "Application error" page (with the digest
 *   of a server error, from its own chunk: app-error-page.tsx), for what no `error.tsx` caught.
 */
import { Component, lazy, Suspense, type ComponentType, type ContextType, type ReactNode } from 'react';
import { digestFrom, serverError } from '../shared/error-messages.js';
import { checkRedirectTarget } from '../shared/redirect-target.js';
import { isRouterSignal, type RouterSignal } from '../shared/router-signals.js';
import type { LazyRouter } from './lazy-router.js';
import { RouterContext } from './router-context.js';
import type { ErrorProps } from './types.js';

interface ResettableProps {
  /** The pathname the boundary was rendered for: a new one clears what it caught. */
  resetKey: string;
  /** A loader's error the server caught for this boundary: it shows from the start. */
  serverDigest?: string | undefined;
  children: ReactNode;
}

interface CaughtState<C> {
  caught: C | null;
  resetKey: string;
  serverDigest: string | undefined;
}

/** What a boundary shows for its props: nothing caught, or the server's error. */
function stateFor<C>({ resetKey, serverDigest }: Omit<ResettableProps, 'children'>): CaughtState<C> {
  const caught = serverDigest === undefined ? null : (serverError(serverDigest) as C);
  return { caught, resetKey, serverDigest };
}

/** The two boundaries of a segment: both read the router, and both start over on new props. */
abstract class ResettingBoundary<P extends ResettableProps, C> extends Component<P, CaughtState<C>> {
  static override contextType = RouterContext;
  declare context: ContextType<typeof RouterContext>;
  override state = stateFor<C>(this.props);

  static getDerivedStateFromProps(
    props: ResettableProps,
    state: CaughtState<unknown>,
  ): CaughtState<unknown> | null {
    const same = props.resetKey === state.resetKey && props.serverDigest === state.serverDigest;
    return same ? null : stateFor(props);
  }
}

export class SegmentErrorBoundary extends ResettingBoundary<
  ResettableProps & { fallback: ComponentType<ErrorProps> },
  Error
> {
  static getDerivedStateFromError(error: unknown): { caught: Error } {
    if (isRouterSignal(error)) throw error;
    return { caught: error instanceof Error ? error : new Error(String(error)) };
  }

  // A loader's error is not undone by rendering again: the page's data is fetched again.
  reset = (): void => {
    if (this.state.serverDigest !== undefined) void this.context?.router.refresh();
    else this.setState({ caught: null });
  };

  override render(): ReactNode {
    const { caught } = this.state;
    if (!caught) return this.props.children;
    const Fallback = this.props.fallback;
    return <Fallback error={caught} reset={this.reset} />;
  }
}

export class SignalBoundary extends ResettingBoundary<
  ResettableProps & { notFound: ComponentType },
  RouterSignal
> {
  static getDerivedStateFromError(error: unknown): { caught: RouterSignal } {
    if (!isRouterSignal(error)) throw error;
    return { caught: error };
  }

  override componentDidCatch(error: unknown): void {
    if (!isRouterSignal(error) || error.kind !== 'redirect') return;
    const path = checkRedirectTarget(error.location);
    const router = this.context?.router;
    if (path === null || !router) {
      console.error(`switchyard: refused to redirect to ${JSON.stringify(error.location)}`);
      return;
    }
    const here = location.pathname + location.search;
    // A redirect to the page already shown does nothing.
    if (new URL(path, location.href).href === new URL(here, location.href).href) return;
    const follow = () => {
      // A redirect after the shell came with a meta refresh for browsers without JavaScript.
      // Stopping the page's load cancels it (we are leaving the page anyway), or the browser
      // would load the target again a second later.
      if (document.querySelector('meta[http-equiv="refresh"]')) window.stop();
      void router.navigate(path, { replace: true });
    };
    // Stopping the page's load stops a script still loading too: the router's own chunk
    // (lazy-router.ts) must be in first, or every later click would load pages in full.
    const ready = (router as Partial<LazyRouter>).ready?.();
    if (ready) ready.then(follow, follow);
    else follow();
  }

  override render(): ReactNode {
    const { caught } = this.state;
    if (!caught) return this.props.children;
    if (caught.kind === 'redirect') return null; // the navigation is on its way
    const NotFound = this.props.notFound;
    return <NotFound />;
  }
}

/**
 * The "Application error" page loads when it is first needed. If it cannot (the network may be
 * what failed), a bare page says the same in two words.
 */
const AppErrorPage = lazy(() =>
  import('./app-error-page.js').catch(() => ({
    default: () => (
      <html lang="en">
        <body>Application error</body>
      </html>
    ),
  })),
);

export class AppErrorBoundary extends Component<{ children: ReactNode }, { caught: unknown }> {
  override state = { caught: null as unknown };

  static getDerivedStateFromError(error: unknown): { caught: unknown } {
    if (isRouterSignal(error)) throw error;
    return { caught: error ?? new Error('unknown error') };
  }

  override render(): ReactNode {
    const { caught } = this.state;
    if (!caught) return this.props.children;
    return (
      <Suspense fallback={null}>
        <AppErrorPage digest={digestFrom(caught)} />
      </Suspense>
    );
  }
}
