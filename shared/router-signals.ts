/**
 * Router signals: `notFound()`, `redirect()` and `permanentRedirect()` throw these. They are
 * control flow, not errors: the renderer turns them into a status and a boundary, and the
 * error reporter never sees them (SPEC E1).
 */

const SIGNAL = Symbol.for('switchyard.signal');

export type RouterSignal =
  | { [SIGNAL]: true; kind: 'not-found' }
  | { [SIGNAL]: true; kind: 'redirect'; location: string; status: 307 | 308 };

export function isRouterSignal(value: unknown): value is RouterSignal {
  return typeof value === 'object' && value !== null && SIGNAL in value;
}

export function isNotFound(value: unknown): value is Extract<RouterSignal, { kind: 'not-found' }> {
  return isRouterSignal(value) && value.kind === 'not-found';
}

export function isRedirect(value: unknown): value is Extract<RouterSignal, { kind: 'redirect' }> {
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
