/**
 * The bench reports each browser step as the median of its passes: the pass in the middle by
 * time, with that pass's own requests and bytes, so one busy moment of the machine does not
 * decide a row.
 */
import { expect, test } from 'vitest';
import { medianFigures, type BrowserFigures } from '../../scripts/bench/browser';

const pass = (prefetched: number, cold: number, back: number, coldRequests = 1): BrowserFigures => ({
  pageView: { requests: 18, kib: 100, selfStarted: 12, selfStartedKib: 46.7 },
  prefetchedClick: { ms: prefetched, requests: 0, kib: 0 },
  coldClick: { ms: cold, requests: coldRequests, kib: 3.4 },
  back: { ms: back, requests: 0, kib: 0 },
});

test('each step is the pass in the middle by time, with its own requests', () => {
  const median = medianFigures([pass(62, 29, 14, 3), pass(36, 17, 12), pass(40, 33, 9, 2)]);
  expect(median.prefetchedClick.ms).toBe(40);
  expect(median.coldClick).toEqual({ ms: 29, requests: 3, kib: 3.4 });
  expect(median.back.ms).toBe(12);
});

test('an even count takes the lower middle; one pass is itself; none is an error', () => {
  expect(medianFigures([pass(50, 20, 10), pass(30, 40, 12)]).prefetchedClick.ms).toBe(30);
  expect(medianFigures([pass(50, 20, 10)])).toEqual(pass(50, 20, 10));
  expect(() => medianFigures([])).toThrow('no browser pass');
});
