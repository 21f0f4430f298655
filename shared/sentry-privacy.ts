/**
 * What a Sentry event or breadcrumb may carry from a request: no query string or fragment (they
 * hold tokens, e-mail addresses, search terms) and no IP address. Both SDKs run these as
 * `beforeSend` and `beforeBreadcrumb`; `server/instrument.mjs` has the same rules in JavaScript.
 * The types are the few fields read, so any SDK's event fits.
 */

export function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/** Breadcrumb fields that hold a URL: fetch and XHR `url`, navigation `from` and `to`. */
const URL_FIELDS = ['url', 'from', 'to'];
/** Fields some integrations split a URL's query into. */
const QUERY_FIELDS = ['http.query', 'http.fragment'];

export function scrubBreadcrumb<B extends { data?: { [key: string]: unknown } | undefined }>(
  breadcrumb: B,
): B {
  if (!breadcrumb.data) return breadcrumb;
  const data: { [key: string]: unknown } = { ...breadcrumb.data };
  for (const key of URL_FIELDS) {
    const value = data[key];
    if (typeof value === 'string') data[key] = withoutQuery(value);
  }
  for (const key of QUERY_FIELDS) delete data[key];
  return { ...breadcrumb, data };
}

export function scrubEvent<
  E extends {
    user?: { ip_address?: unknown } | undefined;
    request?: { url?: string | undefined; query_string?: unknown } | undefined;
  },
>(event: E): E {
  const scrubbed = { ...event };
  if (event.user) {
    const { ip_address: _ip, ...user } = event.user;
    scrubbed.user = user;
  }
  if (event.request) {
    const { query_string: _query, ...request } = event.request;
    scrubbed.request = { ...request, ...(request.url ? { url: withoutQuery(request.url) } : {}) };
  }
  return scrubbed;
}
