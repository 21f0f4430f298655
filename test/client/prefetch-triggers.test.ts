import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

/** One IntersectionObserver, as the browser's: what it was told, in order, and a way to report. */
class FakeObserver {
  static last: FakeObserver | undefined;
  calls: string[] = [];
  constructor(private readonly report: (entries: { target: object; isIntersecting: boolean }[]) => void) {
    FakeObserver.last = this;
  }
  observe(target: { id: string }) {
    this.calls.push(`observe ${target.id}`);
  }
  unobserve(target: { id: string }) {
    this.calls.push(`unobserve ${target.id}`);
  }
  comesIntoView(target: object) {
    this.report([{ target, isIntersecting: true }]);
  }
}

let frames: (() => void)[] = [];
/** The next frame: its callbacks run, then the tasks they queued (after its paint). */
function paint() {
  const run = frames;
  frames = [];
  run.forEach((callback) => callback());
  vi.runAllTimers();
}

async function load() {
  vi.resetModules();
  return (await import('../../client/prefetch-triggers')).observeForPrefetch;
}

describe('prefetch on entering the viewport', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeObserver.last = undefined;
    frames = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  test('links are observed after the paint that shows them; one gone before it never is', async () => {
    const observeForPrefetch = await load();
    observeForPrefetch({ id: 'a' } as never, () => {});
    const stop = observeForPrefetch({ id: 'b' } as never, () => {});
    expect(FakeObserver.last).toBeUndefined();
    stop();
    paint();
    expect(FakeObserver.last!.calls).toEqual(['observe a']);
  });

  test('a link removed is inert at once, and unobserved after the next paint rather than in the commit', async () => {
    const observeForPrefetch = await load();
    const anchor = { id: 'a' };
    const onVisible = vi.fn();
    const stop = observeForPrefetch(anchor as never, onVisible);
    paint();
    const observer = FakeObserver.last!;
    stop();
    expect(observer.calls).toEqual(['observe a']);
    observer.comesIntoView(anchor);
    expect(onVisible).not.toHaveBeenCalled();
    paint();
    expect(observer.calls).toEqual(['observe a', 'unobserve a', 'unobserve a']);
  });

  test('a link seen once is not unobserved again; an anchor given a new URL is observed afresh', async () => {
    const observeForPrefetch = await load();
    const [seen, renamed] = [{ id: 'seen' }, { id: 'renamed' }];
    const stopSeen = observeForPrefetch(seen as never, () => {});
    const stopOld = observeForPrefetch(renamed as never, () => {});
    paint();
    const observer = FakeObserver.last!;
    observer.comesIntoView(seen);
    stopSeen();
    stopOld();
    const onVisible = vi.fn();
    observeForPrefetch(renamed as never, onVisible);
    paint();
    expect(observer.calls).toEqual([
      'observe seen',
      'observe renamed',
      'unobserve seen',
      'unobserve renamed',
      'observe renamed',
    ]);
    observer.comesIntoView(renamed);
    expect(onVisible).toHaveBeenCalledOnce();
  });
});
