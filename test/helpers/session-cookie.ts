/**
 * The demo's session cookie as `signIn` sets it, made by a test that knows the server's secret:
 * the `Cookie` header's `session=<handle>.<signature>`.
 */
import { CookieJar, cookieKey } from '../../server/request/cookies';

/** A secret for servers under test, so the test can sign their cookies (at least 32 characters). */
export const TEST_SECRET = 'switchyard-test-secret-0123456789abcdef';

/** The session cookie of `handle`, signed under `secret`. */
export function sessionCookie(handle: string, secret = TEST_SECRET): string {
  const jar = new CookieJar(undefined, cookieKey(secret), false);
  jar.set('session', handle, { signed: true });
  return jar.setCookieLines()[0]!.split(';')[0]!;
}
