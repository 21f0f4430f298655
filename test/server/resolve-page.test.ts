import { createHook } from 'node:async_hooks';
import { describe, expect, test } from 'vitest';
import { matchRoute } from '../../shared/match-route';
import { createRouteRuntime } from '../../server/render/route-runtime';
import { PageRequest, resolvePage } from '../../server/render/resolve-page';

const assets = { bootstrap: [], common: { scripts: [], styles: [] }, files: {} };
const component = { default: () => null };

/** The promises made, anywhere in the process, while `run` goes on (its own included). */
async function promisesMadeBy(run: () => Promise<unknown>): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made++;
    },
  }).enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return made;
}

describe('resolving a page', () => {
  // Every promise made while a request's scope is current runs Node's async hooks, and every
  // `await` a turn of the microtask queue: with its modules loaded, a page waits only for its
  // loaders.
  test('with its modules loaded, makes no promise of its own beyond waiting for the loaders', async () => {
    const runtime = createRouteRuntime(
      {
        'layout.tsx': () => Promise.resolve(component),
        'items/[id]/page.tsx': () => Promise.resolve(component),
        'items/[id]/page.server.ts': () =>
          Promise.resolve({ load: async ({ params }: { params: { id: string } }) => ({ id: params.id }) }),
      },
      assets,
    );
    const match = matchRoute(runtime.tree, ['items', '7'])!;
    const resolve = () =>
      resolvePage(
        runtime,
        match,
        new PageRequest({
          url: '/items/7',
          searchParams: {},
          request: () => new Request('http://x/'),
          buildId: 'b',
        }),
        ['items', '7'],
      );
    const first = await resolve();
    expect(first.state.segments.at(-1)!.pageData).toEqual({ id: '7' });
    expect([...first.modules.keys()]).toEqual(['layout.tsx', 'items/[id]/page.tsx']);

    // Nine here: the call's own, the loader's, waiting for the loaders (`Promise.allSettled` with
    // its reactions, the function that awaits it and that await) and this test's own await. Each
    // step that looked a module up (search schema, cache policy, components) made two more: 19.
    expect(await promisesMadeBy(resolve)).toBeLessThanOrEqual(10);
  });
});
