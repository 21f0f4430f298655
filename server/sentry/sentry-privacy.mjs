/**
 * The Node SDK's `beforeSend` and `beforeBreadcrumb`: the rules of `shared/sentry-privacy.ts`
 * (no query strings, no IP address) in plain JavaScript, because `node --import` loads this
 * before any compiler. `test/server/sentry-config.test.ts` runs both copies on the same cases.
 */

/**
 * What the Node SDK may collect from a request: no user or IP address, no cookies, headers or
 * bodies, no query strings. The server's settings, and the tests that check what spans keep.
 */
export const DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: false,
  urlQueryParams: false,
  httpBodies: /** @type {never[]} */ ([]),
};

/** @param {string} url */
export function withoutQuery(url) {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/**
 * @template {{ data?: { [key: string]: unknown } | undefined }} B
 * @param {B} breadcrumb
 * @returns {B}
 */
export function scrubBreadcrumb(breadcrumb) {
  if (!breadcrumb.data) return breadcrumb;
  /** @type {{ [key: string]: unknown }} */
  const data = { ...breadcrumb.data };
  for (const key of ['url', 'from', 'to']) {
    const value = data[key];
    if (typeof value === 'string') data[key] = withoutQuery(value);
  }
  for (const key of ['http.query', 'http.fragment']) delete data[key];
  return { ...breadcrumb, data };
}

/**
 * @template {{ user?: { ip_address?: unknown } | undefined, request?: { url?: string | undefined, query_string?: unknown } | undefined }} E
 * @param {E} event
 * @returns {E}
 */
export function scrubEvent(event) {
  const scrubbed = { ...event };
  if (event.user) {
    const user = { ...event.user };
    delete user.ip_address;
    scrubbed.user = user;
  }
  if (event.request) {
    const request = { ...event.request };
    delete request.query_string;
    scrubbed.request = { ...request, ...(request.url ? { url: withoutQuery(request.url) } : {}) };
  }
  return scrubbed;
}

/** Span attributes that hold a request header's value, or where the request came from. */
const SPAN_PRIVATE_ATTRIBUTES = [
  'user_agent.original',
  'client.address',
  'network.peer.address',
  'url.query',
];

/**
 * The Node SDK's `beforeSendSpan`: a span keeps no header value (the user agent included), no
 * client address and no query string; a URL keeps its path.
 * @template {{ attributes?: { [key: string]: unknown } | undefined }} S
 * @param {S} span
 * @returns {S}
 */
export function scrubSpan(span) {
  if (!span.attributes) return span;
  /** @type {{ [key: string]: unknown }} */
  const attributes = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    if (SPAN_PRIVATE_ATTRIBUTES.includes(key) || key.startsWith('http.request.header.')) continue;
    attributes[key] = key === 'url.full' && typeof value === 'string' ? withoutQuery(value) : value;
  }
  return { ...span, attributes };
}
