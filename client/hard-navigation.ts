/**
 * The router's last resort: a full page load of the target. Never twice in a row to one URL
 * within `HARD_NAVIGATION_GUARD_MS`: a page that fails every time would otherwise reload for
 * ever. The last hard navigation is remembered across page loads (sessionStorage in the browser).
 */
import { HARD_NAVIGATION_GUARD_MS } from '../shared/constants.js';
import type { RouterEffects } from './router-types.js';

type Effects = Pick<RouterEffects, 'currentHref' | 'storage' | 'now' | 'assign' | 'reportError'>;

export interface HardNavigation {
  /** Why the router gives up on a soft navigation, for the report when the load is refused. */
  why: string;
  error?: unknown;
  /** Called with the absolute URL just before the browser is sent to it. */
  leaving?: (url: string) => void;
}

/** Loads `href` in full, unless that is the URL just hard-loaded; says whether it did. */
export function hardNavigate(
  effects: Effects,
  href: string,
  { why, error, leaving }: HardNavigation,
): boolean {
  const absolute = new URL(href, effects.currentHref()).href;
  const last = parseLast(effects.storage?.get() ?? null);
  if (last && last.href === absolute && effects.now() - last.at < HARD_NAVIGATION_GUARD_MS) {
    effects.reportError?.(`switchyard: not reloading ${absolute} again (${why})`, error);
    return false;
  }
  effects.storage?.set(JSON.stringify({ href: absolute, at: effects.now() }));
  leaving?.(absolute);
  effects.assign(absolute);
  return true;
}

function parseLast(text: string | null): { href: string; at: number } | undefined {
  try {
    const value = text ? (JSON.parse(text) as { href?: unknown; at?: unknown }) : undefined;
    return typeof value?.href === 'string' && typeof value.at === 'number'
      ? { href: value.href, at: value.at }
      : undefined;
  } catch {
    return undefined;
  }
}
