/** The props the router gives route components, and the argument of `load`. */
import type { ReactNode } from 'react';
import type { Params } from '../shared/match-route.js';

export type { Params };
export type { SearchParams } from '../shared/page-state.js';
import type { SearchParams } from '../shared/page-state.js';

export interface PageProps<P extends Params = Params, D = unknown, S = unknown> {
  params: P;
  searchParams: SearchParams;
  /** The output of the `search` schema the `page.server.ts` beside this page exports. */
  search: S;
  /** What the `load` of the `page.server.ts` beside this page returned (`undefined` without one). */
  data: D;
}

export interface LayoutProps<P extends Params = Params, D = unknown> extends Omit<PageProps<P, D>, 'search'> {
  children: ReactNode;
}

export interface ErrorProps {
  error: Error & { digest?: string };
  reset: () => void;
}

export interface LoadArgs<P extends Params = Params, S = unknown> {
  params: P;
  searchParams: SearchParams;
  /** The output of the `search` schema this `page.server.ts` exports, once it validated. */
  search: S;
  /** The incoming request, as a web `Request`. */
  request: Request;
}
