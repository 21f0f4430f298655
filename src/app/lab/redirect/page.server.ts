import { redirect, type Href, type LoadArgs } from 'switchyard-react';

/**
 * A 307 to the feed, or to `?to=<target>`. The framework checks the target: a path on
 * another site, a `javascript:` URL and the like are answered with a 400.
 */
export function load({ searchParams }: LoadArgs<'/lab/redirect'>): never {
  // Passed on unchecked, the one place the demo does so: this page shows the framework's
  // run-time check of a target that no type can vouch for.
  redirect(typeof searchParams.to === 'string' ? (searchParams.to as Href) : '/');
}
