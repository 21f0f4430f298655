/**
 * The prefetch byte budget of one page view. Links that only come into view may prefetch while
 * the bytes spent on this page, plus an estimate for each prefetch still on its way, stay within
 * the budget; the rest wait until a prefetch settles and frees room, or are never fetched.
 * Intent (hover, touch) and `router.prefetch` are always let through, and count all the same.
 * The estimate is the largest wire size among the last few prefetches measured (kept across page
 * views: an app's pages are alike), and a first guess before any. The largest, not the mean: one
 * small answer (a redirect, a short page) would pull a mean below the pages still to come and let
 * one more start than fits. Only the last few: one huge page must not stop prefetching for good.
 * Pure: no clock, no browser.
 */
import { PREFETCH_BUDGET_BYTES, PREFETCH_FIRST_ESTIMATE_BYTES } from './constants.js';

/** How many of the latest measured prefetches the estimate is taken from. */
const ESTIMATE_FROM = 8;

export interface PrefetchBudget {
  /** Whether one more viewport prefetch fits now. */
  fits(): boolean;
  /** A prefetch starts; its ticket settles or cancels it. */
  open(): Ticket;
  /** A new page view: nothing spent yet on it. Tickets of the page left count nowhere. */
  newPageView(): void;
  readonly limit: number;
  readonly spent: number;
  readonly inFlight: number;
}

/** One prefetch's share of the budget. It counts once: whichever call comes first. */
export interface Ticket {
  /** The prefetch came back with this many bytes on the wire. */
  settle(bytes: number): void;
  /** The prefetch failed or was cut short after it started: it counts as the estimate. */
  cancel(): void;
  /** The prefetch never started: it counts nothing. */
  release(): void;
}

export function createPrefetchBudget(
  limit = PREFETCH_BUDGET_BYTES,
  firstEstimate = PREFETCH_FIRST_ESTIMATE_BYTES,
): PrefetchBudget {
  let view = 0;
  let spent = 0;
  let open = 0;
  /** The wire sizes of the latest measured prefetches, oldest first. */
  const measured: number[] = [];
  const estimate = () => (measured.length === 0 ? firstEstimate : Math.max(...measured));

  return {
    fits: () => spent + (open + 1) * estimate() <= limit,
    open() {
      const mine = view;
      open++;
      let done = false;
      const close = (bytes: number) => {
        if (done) return;
        done = true;
        if (mine !== view) return;
        open--;
        spent += bytes;
      };
      return {
        settle: (bytes) => {
          if (!done && measured.push(bytes) > ESTIMATE_FROM) measured.shift();
          close(bytes);
        },
        // The request may have been under way: count it, so a page of cancelled prefetches
        // cannot spend past its budget.
        cancel: () => close(estimate()),
        release: () => close(0),
      };
    },
    newPageView() {
      view++;
      spent = 0;
      open = 0;
    },
    limit,
    get spent() {
      return spent;
    },
    get inFlight() {
      return open;
    },
  };
}
