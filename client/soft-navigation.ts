/**
 * One soft navigation carried out, from its first attempt to its end: steps 2 to 5 of
 * router.ts's list. Each attempt (one, and one more per redirect followed) waits for its first
 * render, commits it through the screen, fills in behind a loading state, and on failure falls
 * back to a full page load. A newer navigation's attempt aborts it: it then never commits.
 */
import { MAX_REDIRECTS } from '../shared/constants.js';
import { isIntercepted, type DataMode } from '../shared/page-data.js';
import { checkRedirectTarget } from '../shared/redirect-target.js';
import { startDeadline, TimeoutError } from './deadline.js';
import {
  createFirstRender,
  type Attempt,
  type CacheSource,
  type FirstRenderOptions,
} from './first-render.js';
import { hardNavigate } from './hard-navigation.js';
import { toLocal } from './lazy-router.js';
import type { TimedNavigation } from './navigation-details.js';
import { pageOver } from './page-data-client.js';
import { FollowRedirect, LoadDocument, SCRIPTS_TIMED_OUT } from './page-fetch.js';
import { SUPERSEDED } from './navigation-events.js';
import type {
  NavigationKind,
  NavigationOutcome,
  Page,
  RouterSnapshot,
  ScrollIntent,
} from './router-types.js';
import type { NavigationDirection } from './view-transition.js';

export interface SoftNavigationOptions extends FirstRenderOptions {
  routeScriptTimeoutMs: number;
  /** The direction of the view transition a navigation commits in, if it runs one. */
  transitionOf(started: TimedNavigation): NavigationDirection | undefined;
}

/** Where an attempt goes, and how it lands. */
export interface Destination {
  href: string;
  kind: NavigationKind;
  scroll: ScrollIntent;
  /** The key of its history entry (a push makes a new one). */
  key: string;
  /** Its first render from a cache entry; absent, it fetches its own. */
  source?: CacheSource | undefined;
}

export function createSoftNavigation(options: SoftNavigationOptions) {
  const { effects, screen, pages, prefetcher, transitionOf } = options;
  const firstRender = createFirstRender(options);
  /** The one attempt in flight: beginning another aborts it, and it never commits. */
  let inFlight: Attempt | undefined;

  /** Aborts the attempt in flight, if any; its navigation is superseded unless it is `next`. */
  function cancel(next?: TimedNavigation): void {
    if (inFlight && inFlight.started !== next) inFlight.started.settle(SUPERSEDED);
    inFlight?.controller.abort();
    inFlight?.budget.clear();
    inFlight = undefined;
  }

  function begin(started: TimedNavigation): Attempt {
    cancel(started);
    const budget = startDeadline(effects, options.routeScriptTimeoutMs, SCRIPTS_TIMED_OUT);
    inFlight = { started, controller: new AbortController(), budget };
    return inFlight;
  }

  const isCurrent = (attempt: Attempt) => attempt === inFlight;

  /**
   * Step 5: a full page load of the target (hard-navigation.ts guards against a loop). Refused
   * as a loop, the navigation ends `failed` and the page stays.
   */
  function fallBack(started: TimedNavigation, href: string, why: string, error?: unknown): void {
    screen.setPhase('idle');
    const leaving = (url: string) => started.settle({ status: 'hard', url });
    if (!hardNavigate(effects, href, { why, error, leaving }))
      started.settle({ status: 'aborted', reason: 'failed' });
  }

  /** Leaves the app for a URL the router does not render (another origin, a route handler). */
  function leave(started: TimedNavigation, url: string): void {
    started.settle({ status: 'hard', url });
    effects.assign(url);
  }

  /** One attempt of a navigation; `redirects` counts those followed before it. */
  async function load(started: TimedNavigation, to: Destination, redirects = 0): Promise<void> {
    const { kind, scroll } = to;
    const attempt = begin(started);
    const target = new URL(to.href, effects.currentHref());
    const snapshot = screen.getSnapshot();
    // A refresh under an intercepted route asks from the page under it, so it stays intercepted.
    const from = kind === 'refresh' ? (snapshot.state.mainUrl ?? '') : mainOf(snapshot);
    const leaving: Page = { state: snapshot.state, modules: snapshot.modules };
    const layoutChanges = screen.layoutChanges();
    screen.setPhase('loading');
    // Scripts start loading now, beside the data.
    const scripts = started.time('scripts', () => Promise.resolve(effects.preloadRoute?.(target.pathname)));
    scripts.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
    try {
      const first =
        (to.source && (await firstRender.fromEntry(attempt, target, to.source, from, scripts))) ??
        (await firstRender.fetchOwn(attempt, target, kind, from, scripts, leaving));
      if (!isCurrent(attempt)) return;
      const page = pageOver(leaving, first.page, kind, effects.slotRules);
      started.note({ loadingState: first.after !== undefined });
      started.time('commit', () => {
        // A new page view: prefetches the old page started while this navigation was on its
        // way (a link scrolled into view, a hover) stop too, and the budget starts again.
        if (kind !== 'refresh') prefetcher.leave();
        // Pages held for back and forward at this URL (a hash pushed meanwhile) take it too; a
        // route in a slot is not what they show at its URL.
        else if (!page.state.mainUrl) screen.held.refresh(page.state.url, page);
        screen.commit({
          page,
          // A refresh keeps the hash that may have moved on its page meanwhile.
          href: kind === 'refresh' ? screen.getSnapshot().href : toLocal(target.href),
          history: kind === 'push' || kind === 'replace' ? { kind, key: to.key } : undefined,
          // A route shown in a slot opens over the page: the page under it keeps its scroll.
          scroll: isIntercepted(first.page) ? { kind: 'keep' } : scroll,
          announce: kind !== 'refresh',
          phase: first.after ? 'filling' : 'idle',
          transition: transitionOf(started),
        });
      });
      started.settle({ status: 'committed', url: screen.getSnapshot().href, redirected: redirects > 0 });
      // A page from the server (or from an entry made since) answers the layout changes marked
      // before it was asked for, not those after; a route shown in a slot is over the page that
      // was on screen, whose data is not new.
      if (!isIntercepted(first.page)) screen.trustLayouts(layoutChanges);
      if (first.after) await fillIn(attempt, target, first.after, page, to.source?.entry.key);
    } catch (error) {
      if (!isCurrent(attempt)) return; // cancelled by a newer navigation: never shown
      attempt.controller.abort();
      if (error instanceof FollowRedirect && redirects < MAX_REDIRECTS) {
        // The redirect takes the place of the page asked for: a push stays a push, else replace.
        const next = kind === 'push' ? 'push' : 'replace';
        await followRedirect(started, error.location, next, scroll, target.href, redirects + 1);
        return;
      }
      if (error instanceof LoadDocument) {
        // A route handler answers this URL: the browser loads it, as it would a plain link.
        screen.setPhase('idle');
        leave(started, error.url);
        return;
      }
      const why = error instanceof TimeoutError ? error.message : 'page data failed';
      fallBack(started, target.href, why, error);
    } finally {
      attempt.budget.clear();
      if (inFlight === attempt) inFlight = undefined;
    }
  }

  /**
   * Step 4: the data a loading state stands for, fetched and committed behind it. `key` is that
   * of the entry it came from, if any.
   */
  async function fillIn(
    attempt: Attempt,
    target: URL,
    mode: DataMode,
    shown: Page,
    key: string | undefined,
  ): Promise<void> {
    const { signal } = attempt.controller;
    const fetching = pages.fetchPage(target, { from: '', mode, signal, base: shown.state });
    // All data again for a stale entry: it takes the entry's place, as without a loading state;
    // under its key, not one read from the page on screen now, which is the target.
    if (mode === 'full') prefetcher.addTemporary(target, fetching, signal, key);
    const full = await fetching;
    if (!isCurrent(attempt)) return;
    // The server never intercepts a `rest` request: this is a bug, not a user's problem.
    if (isIntercepted(full)) throw new Error('switchyard: the rest of a page came back intercepted');
    const { href } = screen.getSnapshot();
    screen.commit({ page: full, href, scroll: { kind: 'keep' }, announce: false, phase: 'idle' });
  }

  /**
   * Goes on to a redirect's target. Only paths on this origin are followed here; anything else
   * the server allowed is left to a full load of the page that redirected, which the server
   * answers with a real 307/308. A redirect to the page already shown does nothing.
   */
  async function followRedirect(
    started: TimedNavigation,
    location: string,
    kind: 'push' | 'replace',
    scroll: ScrollIntent,
    from: string,
    redirects: number,
  ): Promise<void> {
    const path = checkRedirectTarget(location);
    if (path === null) return fallBack(started, from, 'redirect to another origin');
    const target = new URL(path, effects.currentHref());
    if (pathAndSearch(target.href) === pathAndSearch(effects.currentHref())) {
      // The user is where the redirect leads: the navigation ends there, with nothing to commit.
      screen.setPhase('idle');
      started.settle({ status: 'committed', url: screen.getSnapshot().href, redirected: true });
      return;
    }
    // A key of its own either way: a hash pushed meanwhile made the entry replaced another one.
    await load(started, { href: target.href, kind, scroll, key: effects.newKey() }, redirects);
  }

  /**
   * The outcome of a navigation, which comes at its commit: what a loading state stands for is
   * still on its way then. A bug that escapes `load` is reported, and ends the navigation.
   */
  function settle(started: TimedNavigation, attempt: Promise<void>): Promise<NavigationOutcome> {
    attempt.catch((error: unknown) => {
      effects.reportError?.('switchyard: a navigation failed', error);
      started.settle({ status: 'aborted', reason: 'failed' });
    });
    return started.outcome;
  }

  /** Runs a navigation to `to`; its outcome comes at its commit, or where it ends without one. */
  const run = (started: TimedNavigation, to: Destination) => settle(started, load(started, to));

  return { run, leave, cancel, current: () => inFlight?.started };
}

/** The page the user is on, for the server: under an intercepted route, the page under it. */
export function mainOf(snapshot: RouterSnapshot): string {
  return snapshot.state.mainUrl ?? pathAndSearch(snapshot.href);
}

/** Pathname and search of a URL, absolute or local: what tells two pages apart. */
export function pathAndSearch(href: string): string {
  const url = new URL(href, 'http://localhost');
  return url.pathname + url.search;
}
