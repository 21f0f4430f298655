/**
 * A Sentry DSN, `{protocol}://{publicKey}@{host}[:{port}]{pathPrefix}/{projectId}`, read with the
 * WHATWG URL parser: userinfo, backslash and default-port tricks resolve exactly as `fetch` would
 * resolve them. Two DSNs name the same project only if every part but the key is equal.
 */

export interface Dsn {
  /** `http:` or `https:` for a usable DSN; any scheme for one read from an envelope. */
  protocol: string;
  /** Lower-cased by the URL parser; IPv6 addresses keep their brackets. */
  hostname: string;
  /** `''` for the protocol's default port, as the URL parser gives it. */
  port: string;
  /** `''` or a path such as `/sentry` before the project id. */
  pathPrefix: string;
  /** Digits only. */
  projectId: string;
}

/**
 * The parts of a DSN, or `undefined` when the text is not one: not a URL, no public key, a
 * query or fragment, or a last path segment that is not a numeric project id.
 *
 * @example parseDsn('https://key@o1.ingest.sentry.io/123')
 * // { protocol: 'https:', hostname: 'o1.ingest.sentry.io', port: '', pathPrefix: '', projectId: '123' }
 */
export function parseDsn(text: string): Dsn | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (!url.username || url.search || url.hash) return undefined;
  const slash = url.pathname.lastIndexOf('/');
  const projectId = url.pathname.slice(slash + 1);
  // Stricter than the SDK, which reads `123abc` as project 123: a near miss is not a match.
  if (!/^\d+$/.test(projectId)) return undefined;
  return {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port,
    pathPrefix: url.pathname.slice(0, slash),
    projectId,
  };
}

/** Whether two DSNs send to the same project of the same Sentry; the public key may differ. */
export function isSameProject(a: Dsn, b: Dsn): boolean {
  return (
    a.protocol === b.protocol &&
    a.hostname === b.hostname &&
    a.port === b.port &&
    a.pathPrefix === b.pathPrefix &&
    a.projectId === b.projectId
  );
}

/** Where a DSN's envelopes are posted. */
export function envelopeEndpoint(dsn: Dsn): string {
  const port = dsn.port ? `:${dsn.port}` : '';
  return `${dsn.protocol}//${dsn.hostname}${port}${dsn.pathPrefix}/api/${dsn.projectId}/envelope/`;
}
