import { redirect, type LoadArgs } from 'switchyard-react';

/**
 * A 307 to the feed, or to `?to=<target>`. The framework checks the target: a path on
 * another site, a `javascript:` URL and the like are answered with a 400.
 */
export function load({ searchParams }: LoadArgs): never {
  redirect(typeof searchParams.to === 'string' ? searchParams.to : '/');
}
