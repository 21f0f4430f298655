/**
 * Type tests, checked by `tsc -p test`: each `@ts-expect-error` must stay an error. What
 * `router.devtools()` hands over is the router's own cache, not a copy: the devtools may read
 * its entries and ask the cache about them, never change them.
 */
import type { Router } from '../../client/router-types';

declare const router: Router;
const source = router.devtools();
const entry = source.cache.get('/a')!;

// Reading, and asking the cache's own rule, stay open.
export const read = [entry.kind, source.cache.status(entry, source.now), source.cache.policyOf(entry)];

// @ts-expect-error an entry's kind is the cache's to change
entry.kind = 'full';
// @ts-expect-error so is its last use, which moves its fresh window
source.cache.entries()[0]!.lastUsedTime = 0;
// @ts-expect-error and its result
entry.result = { state: 'rejected', error: null };
// @ts-expect-error a deferred link is the prefetcher's
source.deferred[0]!.href = '/b';
