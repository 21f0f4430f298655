import { describe, expect, test, vi } from 'vitest';
import { LoaderArgs, PageRequest } from '../../server/render/resolve-page';

function pageRequest(request: () => Request) {
  return new PageRequest({
    url: '/p?q=1',
    searchParams: { q: '1' },
    request,
    buildId: 'b',
    search: { q: 1 },
  });
}

describe('what a loader receives', () => {
  test('params, searchParams, search and request, each an own enumerable property', () => {
    const made = new Request('http://localhost/p?q=1');
    const args = new LoaderArgs(
      pageRequest(() => made),
      { id: '7' },
    );
    expect(Object.keys(args).sort()).toEqual(['params', 'request', 'search', 'searchParams']);
    const { params, searchParams, search, request } = args;
    expect({ params, searchParams, search }).toEqual({
      params: { id: '7' },
      searchParams: { q: '1' },
      search: { q: 1 },
    });
    expect(request).toBe(made);
    // A spread copy keeps them all, the request included.
    expect({ ...args }.request).toBe(made);
  });

  test('the request is made only when a loader reads it', () => {
    const make = vi.fn(() => new Request('http://localhost/p'));
    const args = new LoaderArgs(pageRequest(make), {});
    expect(make).not.toHaveBeenCalled();
    void args.request;
    expect(make).toHaveBeenCalledTimes(1);
  });

  // A getter written into an object literal is a new function each time, and V8 keeps it in an
  // accessor pair allocated in the old generation: dead, it held the whole request through every
  // young collection. One getter for every loader's arguments allocates nothing per request.
  test('the arguments of every loader share one getter for the request', () => {
    const getter = (args: LoaderArgs) => Object.getOwnPropertyDescriptor(args, 'request')?.get;
    const first = new LoaderArgs(
      pageRequest(() => new Request('http://localhost/a')),
      {},
    );
    const second = new LoaderArgs(
      pageRequest(() => new Request('http://localhost/b')),
      {},
    );
    expect(getter(first)).toBeTypeOf('function');
    expect(getter(first)).toBe(getter(second));
    expect(first.request.url).toBe('http://localhost/a');
    expect(second.request.url).toBe('http://localhost/b');
  });
});
