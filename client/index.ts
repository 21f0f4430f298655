/**
 * `switchyard`: what app code imports on both sides. App code never reaches into `client/`,
 * `server/` or `shared/` by path; this list is locked by a test.
 */
export { Link, useLinkStatus, type LinkProps, type LinkStatus } from './link.js';
export {
  useRouter,
  usePathname,
  useParams,
  useSearchParams,
  useNavigationPending,
  type AppRouter,
} from './router-context.js';
export { useBlocker, type Blocker, type BlockWhen, type PendingNavigation } from './use-blocker.js';
export type {
  NavigationDetails,
  NavigationEvent,
  NavigationKind,
  NavigationListener,
  NavigationOutcome,
  PrefetchOutcome,
} from './router-types.js';
export { notFound, redirect, permanentRedirect } from '../shared/router-signals.js';
export { href, type Href, type Register } from '../shared/href.js';
export type { PageProps, LayoutProps, ErrorProps, LoadArgs, Params, SearchParams } from './types.js';
export type { StandardSchemaV1 } from '../shared/standard-schema.js';
export type { Head, HeadArgs } from '../shared/head.js';
