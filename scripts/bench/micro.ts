/**
 * Micro-benchmarks of the router's core, in this process: the cache status rule, pruning a
 * cache of 10 000 entries, and matching against a tree of 1 000 routes. Each figure is the
 * median of several timed batches, in microseconds per operation.
 */
import { buildRouteTree } from '../../shared/route-tree';
import { matchRoute } from '../../shared/match-route';
import { createPrefetchCache } from '../../shared/prefetch-cache';
import { statusOf, type PrefetchKind } from '../../shared/prefetch-status';
import { median } from './load';

function timePerOp(batches: number, opsPerBatch: number, run: () => void): number {
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = performance.now();
    run();
    times.push(((performance.now() - start) * 1000) / opsPerBatch);
  }
  return median(times);
}

export async function microBenchmarks(batches: number) {
  const kinds: PrefetchKind[] = ['auto', 'full', 'temporary'];
  const entries = Array.from({ length: 1000 }, (_, i) => ({
    kind: kinds[i % 3]!,
    prefetchTime: i * 500,
    ...(i % 2 ? { lastUsedTime: i * 500 + 10_000 } : {}),
  }));
  let sink = 0;
  const statusUs = timePerOp(batches, 100_000, () => {
    for (let i = 0; i < 100_000; i++) if (statusOf(entries[i % 1000]!, i * 5) === 'fresh') sink++;
  });

  // Half of the entries are past every window at `now`: a prune drops 5 000 and walks 10 000.
  const pruneTimes: number[] = [];
  for (let b = 0; b < batches; b++) {
    const cache = createPrefetchCache<number>({ maxEntries: 10_000 });
    for (let i = 0; i < 10_000; i++)
      cache.add(`/items/${i}`, 'auto', Promise.resolve(i), i < 5_000 ? 0 : 400_000);
    await Promise.resolve();
    const start = performance.now();
    sink += cache.prune(400_001);
    pruneTimes.push((performance.now() - start) * 1000);
  }

  const files = Array.from({ length: 1000 }, (_, i) =>
    i % 4 === 0
      ? `section${i}/[id]/page.tsx`
      : i % 4 === 1
        ? `section${i}/[...rest]/page.tsx`
        : `section${i}/page.tsx`,
  );
  const tree = buildRouteTree(files);
  const paths = Array.from({ length: 1000 }, (_, i) =>
    i % 4 === 0 ? [`section${i}`, '42'] : i % 4 === 1 ? [`section${i}`, 'a', 'b'] : [`section${i}`],
  );
  const matchUs = timePerOp(batches, 1000, () => {
    for (const segments of paths) if (matchRoute(tree, segments)) sink++;
  });
  if (sink < 0) console.log(sink); // keeps the loops from being optimised away
  return { statusUs, prune10kUs: median(pruneTimes), match1000RoutesUs: matchUs };
}
