/**
 * Router signals: `notFound()`, `redirect()` and `permanentRedirect()` throw these. They are
 * control flow, not errors: the renderer turns them into a status and a boundary, and the
 * error reporter never sees them.
 */
import type { CheckedHref } from './href.js';

const SIGNAL = Symbol.for('switchyard.signal');

export type RouterSignal =
  | { [SIGNAL]: true; kind: 'not-found' }
  | { [SIGNAL]: true; kind: 'redirect'; location: string; status: 307 | 308 };

export type RedirectSignal = Extract<RouterSignal, { kind: 'redirect' }>;

export function isRouterSignal(value: unknown): value is RouterSignal {
  return typeof value === 'object' && value !== null && SIGNAL in value;
}

export function isNotFound(value: unknown): value is Extract<RouterSignal, { kind: 'not-found' }> {
  return isRouterSignal(value) && value.kind === 'not-found';
}

export function isRedirect(value: unknown): value is RedirectSignal {
  return isRouterSignal(value) && value.kind === 'redirect';
}

/** Signals are Error objects so that stacks show where they came from; the symbol is what counts. */
function signal<T extends RouterSignal>(message: string, fields: Omit<T, typeof SIGNAL>): T {
  return Object.assign(new Error(message), { [SIGNAL]: true as const }, fields) as unknown as T;
}

/**
 * Ends the current render with the nearest `not-found.tsx` and a 404.
 *
 * @example
 * const photo = findPhoto(params.id);
 * if (!photo) notFound();
 */
export function notFound(): never {
  throw signal('switchyard: not found', { kind: 'not-found' });
}

/**
 * Sends the user to another page: 307 before the page has streamed, a client navigation (or a
 * meta refresh without JavaScript) after. Only same-origin paths are followed.
 *
 * @example
 * if (!session) redirect(`/login?next=${encodeURIComponent(url)}`);
 */
export function redirect<U extends string>(location: CheckedHref<U>): never {
  throw signal<RedirectSignal>(`switchyard: redirect to ${location}`, {
    kind: 'redirect',
    location,
    status: 307,
  });
}

/** Like `redirect`, for a move that is for good: 308, which browsers and crawlers remember. */
export function permanentRedirect<U extends string>(location: CheckedHref<U>): never {
  throw signal<RedirectSignal>(`switchyard: permanent redirect to ${location}`, {
    kind: 'redirect',
    location,
    status: 308,
  });
}

/**
 * A signal as plain data, to cross from server to client (in page data or a streamed chunk),
 * and back into a signal that the client's boundaries act on.
 */
export type SignalData = { kind: 'not-found' } | { kind: 'redirect'; location: string; status: 307 | 308 };

export function signalData(value: RouterSignal): SignalData {
  return value.kind === 'not-found'
    ? { kind: 'not-found' }
    : { kind: 'redirect', location: value.location, status: value.status };
}

export function toSignal(data: SignalData): RouterSignal {
  return data.kind === 'not-found'
    ? signal('switchyard: not found', { kind: 'not-found' })
    : signal<RedirectSignal>(`switchyard: redirect to ${data.location}`, data);
}
