/**
 * The React bindings of the router: one context, filled by `RouterRoot` from one
 * `useSyncExternalStore`, and the hooks that read it. No routing logic lives here.
 */
import { createContext, useContext, useMemo, useSyncExternalStore } from 'react';
import type { TakingHref } from '../shared/href.js';
import type { Params } from '../shared/match-route.js';
import type { PageState } from '../shared/page-state.js';
import type {
  NavigateOptions,
  NavigationListener,
  NavigationOutcome,
  PrefetchOutcome,
  Router,
} from './router.js';
import type { ParamsOf, ParamsPattern } from './types.js';

export interface RouterContextValue {
  router: Router;
  state: PageState;
}

export const RouterContext = createContext<RouterContextValue | null>(null);

function useRouterContext(hook: string): RouterContextValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error(`${hook}() must be called inside a Switchyard page`);
  return value;
}

export interface AppRouter {
  /** Resolves when the navigation settles: committed, aborted or a full page load; never rejects. */
  push: TakingHref<[options?: Omit<NavigateOptions, 'replace'>], Promise<NavigationOutcome>>;
  replace: TakingHref<[options?: Omit<NavigateOptions, 'replace'>], Promise<NavigationOutcome>>;
  back(): void;
  forward(): void;
  /** Fetches the current page's data again; client state is kept. */
  refresh(): Promise<NavigationOutcome>;
  /** Prefetches a URL's scripts and all its data (a `full` entry); resolves when it settles. */
  prefetch: TakingHref<[], Promise<PrefetchOutcome>>;
  /**
   * Hears every navigation: `start`, then one `commit`, `abort` or `hard` with its id. Returns
   * the unsubscribe, for an effect's cleanup.
   */
  subscribe(listener: NavigationListener): () => void;
}

/**
 * @example
 * const router = useRouter();
 * <button onClick={async () => {
 *   const outcome = await router.push('/photos/1');
 *   if (outcome.status === 'committed') track(outcome.url);
 * }}>Open</button>
 */
export function useRouter(): AppRouter {
  const { router } = useRouterContext('useRouter');
  // The URLs were checked where `push`, `replace` and `prefetch` were called: here they are strings.
  return useMemo(
    () => ({
      push: (href: string, options) => router.navigate(href, { ...options, replace: false }),
      replace: (href: string, options) => router.navigate(href, { ...options, replace: true }),
      back: () => router.back(),
      forward: () => router.forward(),
      refresh: () => router.refresh(),
      prefetch: (href: string) => router.prefetch(href, 'full'),
      subscribe: (listener) => router.onNavigation(listener),
    }),
    [router],
  );
}

/** The current pathname, without search or hash: `/photos/3`. */
export function usePathname(): string {
  const { url } = useRouterContext('usePathname').state;
  const query = url.indexOf('?');
  return query >= 0 ? url.slice(0, query) : url;
}

/**
 * The params of the current route: `{ id: '3' }` for `/photos/[id]`. Given a pattern the
 * app's generated route types register, typed as that pattern's params.
 *
 * @example
 * const { id } = useParams<'/photos/[id]'>();
 */
export function useParams<P extends Params | ParamsPattern = Params>(): P extends string
  ? ParamsOf<P & ParamsPattern>
  : P {
  return useRouterContext('useParams').state.params as P extends string ? ParamsOf<P & ParamsPattern> : P;
}

/** The current search params, read-only by convention. */
export function useSearchParams(): URLSearchParams {
  const { url } = useRouterContext('useSearchParams').state;
  return useMemo(() => new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?')) : ''), [url]);
}

/**
 * Whether a navigation is on its way: true from the click (or `router.push`) until the new page
 * commits — its loading state, if it has one, counts as committed — or the router gives up and
 * loads the page in full. Always false on the server. Only components that call it re-render
 * when it changes.
 *
 * @example
 * function ProgressBar() {
 *   const pending = useNavigationPending();
 *   return pending ? <div role="progressbar" aria-label="Loading the next page" /> : null;
 * }
 */
export function useNavigationPending(): boolean {
  const { router } = useRouterContext('useNavigationPending');
  return useSyncExternalStore(router.subscribe, () => router.getSnapshot().pending, notPending);
}

const notPending = () => false;
