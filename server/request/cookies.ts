/**
 * The cookies of one request: those it came with, and those app code sets or deletes while it is
 * answered. A cookie set is read back at once (middleware can set what a loader then reads), and
 * goes out as one `Set-Cookie` line per cookie as a browser keeps it apart (name, path and domain),
 * the last call for that cookie winning. Reading a name gives the value set last for it.
 *
 * Defaults follow what a session cookie needs: `HttpOnly` (no script reads it), `SameSite=Lax`
 * (not sent on another site's posts), `Path=/`, and `Secure` when the request came over https.
 *
 * A signed cookie is `value.signature`: an HMAC-SHA256 of the name and value under a key derived
 * from the app's secret, so a browser can read it but not change it, and a value cannot be moved
 * to another cookie's name. Reading checks it in constant time; a value that was changed, cut
 * short, or is larger than a browser keeps reads as absent — never an error.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseCookie, parseSetCookie, stringifySetCookie, type SerializeOptions } from 'cookie';

/** Browsers keep a cookie's name and value up to 4096 bytes together; past it they drop it. */
export const MAX_COOKIE_BYTES = 4096;
/** Cookies read off one request: a header with more is read up to here. */
const MAX_COOKIE_HEADER_BYTES = 16 * 1024;
/** An HMAC-SHA256 in base64url. */
const SIGNATURE_LENGTH = 43;

export interface CookieOptions {
  /** Seconds until it expires; `0` expires it now. Without it (or `expires`) it ends with the browser session. */
  maxAge?: number;
  expires?: Date;
  path?: string;
  domain?: string;
  /** `true` by default: scripts in the page cannot read it. */
  httpOnly?: boolean;
  /** By default, `true` when the request came over https. */
  secure?: boolean;
  /** `'lax'` by default. */
  sameSite?: 'lax' | 'strict' | 'none';
  partitioned?: boolean;
  priority?: 'low' | 'medium' | 'high';
  /** Signs the value with the app's secret; read it back with `get(name, { signed: true })`. */
  signed?: boolean;
}

/**
 * What a deletion must repeat of how the cookie was set: `path` and `domain` name it, browsers
 * keep a partitioned cookie apart from an unpartitioned one of the same name, and in a cross-site
 * frame, where a partitioned cookie lives, they refuse a line without `SameSite=None; Secure`.
 */
export type DeleteCookieOptions = Pick<
  CookieOptions,
  'path' | 'domain' | 'secure' | 'sameSite' | 'partitioned'
>;

export interface Cookie {
  name: string;
  value: string;
}

/** The key that signs cookies: derived from the app's secret, kept apart from its other uses. */
export function cookieKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('switchyard cookie signing').digest();
}

function signatureOf(key: Buffer, name: string, value: string): string {
  return createHmac('sha256', key).update(`${name}=${value}`).digest('base64url');
}

/**
 * What names the cookie a `Set-Cookie` line sets, as a browser keeps it apart from others: its
 * name, its path (one not given is the request's directory: `/a/b` gives `/a`) and its domain (one
 * not given is this host alone; a leading dot means nothing).
 */
function cookieIdentity(line: string, requestPath: string): string {
  const { name, path, domain } = parseSetCookie(line, { decode: String });
  const at = path?.startsWith('/') ? path : requestPath.slice(0, Math.max(requestPath.lastIndexOf('/'), 1));
  return `${name}\n${at}\n${domain?.replace(/^\./, '').toLowerCase() ?? ''}`;
}

/**
 * The lines of `ours` that set a cookie none of `theirs` sets: where both set one, theirs wins.
 * `requestPath` is the request's pathname, for lines that give no `Path`.
 */
export function cookiesNotIn(
  theirs: readonly string[],
  ours: readonly string[],
  requestPath: string,
): string[] {
  const taken = new Set(theirs.map((line) => cookieIdentity(line, requestPath)));
  return ours.filter((line) => !taken.has(cookieIdentity(line, requestPath)));
}

export class CookieJar {
  /** Parsed when first read: most requests never look at their cookies. */
  private received: Record<string, string | undefined> | undefined;
  /**
   * What this request set, by the cookie's identity (name, path, domain), in the order of the
   * last call for each: the value, or `undefined` for deleted.
   */
  private readonly changed = new Map<string, { name: string; value: string | undefined; line: string }>();

  constructor(
    private readonly header: string | undefined,
    private readonly key: Buffer,
    private readonly https: boolean,
  ) {}

  get(name: string, options?: { signed?: boolean }): string | undefined {
    const value = this.current(name);
    if (value === undefined) return undefined;
    return options?.signed ? this.unsign(name, value) : value;
  }

  /** Every cookie this request has now, signed ones as sent (`value.signature`). */
  getAll(): Cookie[] {
    const names = new Set([
      ...Object.keys(this.incoming()),
      ...[...this.changed.values()].map((c) => c.name),
    ]);
    return [...names].flatMap((name) => {
      const value = this.current(name);
      return value === undefined ? [] : [{ name, value }];
    });
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  set(name: string, value: string, options: CookieOptions = {}): void {
    const { signed, ...attributes } = options;
    const stored = signed ? `${value}.${signatureOf(this.key, name, value)}` : value;
    this.change(name, stored, this.line(name, stored, attributes));
  }

  delete(name: string, options: DeleteCookieOptions = {}): void {
    // Expired at once, with the attributes that name the cookie being removed.
    this.change(name, undefined, this.line(name, '', { ...options, maxAge: 0 }));
  }

  /** The `Set-Cookie` lines for the answer. */
  setCookieLines(): string[] {
    return [...this.changed.values()].map(({ line }) => line);
  }

  private change(name: string, value: string | undefined, line: string): void {
    // The jar's lines always carry a Path that starts with `/` (`line` refuses any other), so no
    // request path is needed to name the cookie.
    const identity = cookieIdentity(line, '/');
    // Moved to the end: the order of the changes is what `current` reads.
    this.changed.delete(identity);
    this.changed.set(identity, { name, value, line });
  }

  /**
   * A name's value now: the one set last under that name on any path or domain that was not
   * deleted since; none if this request only deleted it (the one it came with may be the one
   * deleted); the one it came with if this request never touched it.
   */
  private current(name: string): string | undefined {
    let touched = false;
    let value: string | undefined;
    for (const change of this.changed.values()) {
      if (change.name !== name) continue;
      touched = true;
      if (change.value !== undefined) value = change.value;
    }
    return touched ? value : this.incoming()[name];
  }

  private line(name: string, value: string, options: Omit<CookieOptions, 'signed'>): string {
    // An option set to `undefined` (`{ path }` with no path, from JavaScript or a looser tsconfig)
    // was not given: spread as it is, it would erase the default and the cookie would lose
    // HttpOnly, Secure or Path=/.
    const given = Object.entries(options).filter(([, option]) => option !== undefined);
    const attributes: SerializeOptions = {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.https,
      ...Object.fromEntries(given),
    };
    if (attributes.sameSite === 'none' && !attributes.secure) {
      throw new TypeError(`cookie "${name}": SameSite=None needs Secure, or browsers drop it`);
    }
    if (attributes.partitioned && !attributes.secure) {
      throw new TypeError(`cookie "${name}": Partitioned needs Secure, or browsers drop it`);
    }
    // A browser ignores a Path that is empty or does not start with `/`, and files the cookie
    // under the request's directory instead: set on /shop/cart with `path: 'shop'`, it would
    // live at /shop, apart from every cookie of the same name set with a path.
    if (!attributes.path?.startsWith('/')) {
      throw new TypeError(
        `cookie "${name}": path ${JSON.stringify(attributes.path)} does not start with "/", so browsers ignore it and keep the cookie under the request's directory; give a path from the root, such as "/${attributes.path ?? ''}"`,
      );
    }
    // Throws a TypeError naming what is wrong for a name or attribute a header cannot carry.
    const line = stringifySetCookie(name, value, attributes);
    const size = line.indexOf(';') < 0 ? line.length : line.indexOf(';');
    if (size > MAX_COOKIE_BYTES) {
      throw new RangeError(
        `cookie "${name}" is ${size} bytes encoded; browsers drop cookies over ${MAX_COOKIE_BYTES} (keep large data on the server and its id in the cookie)`,
      );
    }
    return line;
  }

  private incoming(): Record<string, string | undefined> {
    if (!this.received) {
      const header = this.header ?? '';
      this.received = parseCookie(
        header.length > MAX_COOKIE_HEADER_BYTES ? header.slice(0, MAX_COOKIE_HEADER_BYTES) : header,
      );
    }
    return this.received;
  }

  private unsign(name: string, stored: string): string | undefined {
    if (stored.length > MAX_COOKIE_BYTES) return undefined;
    const dot = stored.lastIndexOf('.');
    if (dot < 0 || stored.length - dot - 1 !== SIGNATURE_LENGTH) return undefined;
    const value = stored.slice(0, dot);
    const given = Buffer.from(stored.slice(dot + 1));
    const expected = Buffer.from(signatureOf(this.key, name, value));
    return given.length === expected.length && timingSafeEqual(given, expected) ? value : undefined;
  }
}
