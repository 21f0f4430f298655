import { describe, expect, it } from 'vitest';
import { createRouteRuntime } from '../../server/render/route-runtime';

const assets = { bootstrap: [], common: { scripts: [], styles: [] }, files: {} };
const page = { default: () => null };

describe('route runtime', () => {
  it('hands out a module without a promise once its import has finished, and only then', async () => {
    const runtime = createRouteRuntime({ 'page.tsx': () => Promise.resolve(page) }, assets);
    expect(runtime.ready('page.tsx')).toBeUndefined();
    const loading = runtime.load('page.tsx');
    expect(runtime.ready('page.tsx')).toBeUndefined();
    expect(await loading).toBe(page);
    expect(runtime.ready('page.tsx')).toBe(page);
  });

  it('keeps no failed import: the next load imports again, and nothing is ready in between', async () => {
    let imports = 0;
    const runtime = createRouteRuntime(
      { 'page.tsx': () => (++imports === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(page)) },
      assets,
    );
    await expect(runtime.load('page.tsx')).rejects.toThrow('offline');
    expect(runtime.ready('page.tsx')).toBeUndefined();
    expect(await runtime.load('page.tsx')).toBe(page);
    expect(imports).toBe(2);
    expect(runtime.ready('page.tsx')).toBe(page);
  });

  it('keeps nothing without its cache (development): each load imports again', async () => {
    let imports = 0;
    const runtime = createRouteRuntime(
      { 'page.tsx': () => (imports++, Promise.resolve(page)) },
      assets,
      false,
    );
    await runtime.load('page.tsx');
    await runtime.load('page.tsx');
    expect(imports).toBe(2);
    expect(runtime.ready('page.tsx')).toBeUndefined();
  });
});
