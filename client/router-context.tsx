/**
 * The React bindings of the router: one context, filled by `RouterRoot` from one
 * `useSyncExternalStore`, and the hooks that read it. No routing logic lives here.
 */
import { createContext, useContext, useMemo } from 'react';
import type { Params } from '../shared/match-route';
import type { PageState } from '../shared/page-state';
import type { NavigateOptions, Router } from './router';

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
  push(href: string, options?: Omit<NavigateOptions, 'replace'>): void;
  replace(href: string, options?: Omit<NavigateOptions, 'replace'>): void;
  back(): void;
  forward(): void;
  /** Fetches the current page's data again; client state is kept. */
  refresh(): void;
  /** Prefetches a URL's scripts and all its data (a `full` entry, SPEC C2). */
  prefetch(href: string): void;
}

/**
 * @example
 * const router = useRouter();
 * <button onClick={() => router.push('/photos/1')}>Open</button>
 */
export function useRouter(): AppRouter {
  const { router } = useRouterContext('useRouter');
  return useMemo(
    () => ({
      push: (href, options) => void router.navigate(href, { ...options, replace: false }),
      replace: (href, options) => void router.navigate(href, { ...options, replace: true }),
      back: () => router.back(),
      forward: () => router.forward(),
      refresh: () => void router.refresh(),
      prefetch: (href) => router.prefetch(href, 'full'),
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

/** The params of the current route: `{ id: '3' }` for `/photos/[id]`. */
export function useParams<P extends Params = Params>(): P {
  return useRouterContext('useParams').state.params as P;
}

/** The current search params, read-only by convention. */
export function useSearchParams(): URLSearchParams {
  const { url } = useRouterContext('useSearchParams').state;
  return useMemo(() => new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?')) : ''), [url]);
}
