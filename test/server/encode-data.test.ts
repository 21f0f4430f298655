/**
 * Loader data reaches the browser as the server had it: through the document's bootstrap script
 * (evaluated here as the browser does), through page data (read by the client's own
 * `readPageData`) and through a streamed script. Plain JSON travels unchanged; what cannot be
 * sent names the loader file and the path to the value.
 */
import { describe, expect, test } from 'vitest';
import { readPageData } from '../../client/page-data-client';
import type { InterceptedAnswer, PageDataResponse } from '../../shared/page-data';
import type { PageState, SegmentState } from '../../shared/page-state';
import { buildRouteTree } from '../../shared/route-tree';
import { serializeForScript } from '../../shared/serialize-for-script';
import { track } from '../../shared/streamed-data';
import {
  dataScript,
  encodeSegments,
  isPlainJson,
  loaderFile,
  pageStateScript,
  UnsendableDataError,
  type LoaderFileOf,
} from '../../server/render/encode-data';

const fileOf: LoaderFileOf = (dir, kind) => `${dir}/${kind === 'pageData' ? 'page' : 'layout'}.server.ts`;

const state = (segments: SegmentState[]): PageState => ({
  buildId: 'b',
  url: '/x',
  pattern: '/x',
  params: {},
  searchParams: {},
  segments,
});
const withPageData = (data: unknown) =>
  state([
    { dir: '', files: { layout: 'layout.tsx' }, layoutData: { site: 'plain' } },
    { dir: 'x', files: { page: 'x/page.tsx' }, pageData: data },
  ]);

/** What the browser gets for a page's data: the document's script evaluated, as it runs it. */
function throughDocument(data: unknown): unknown {
  const script = pageStateScript(withPageData(data), fileOf);
  return (new Function(`return ${script}`)() as PageState).segments[1]!.pageData;
}

/** What the router gets for it: page data as sent, read by the client's own reader. */
async function throughPageData(data: unknown): Promise<unknown> {
  const { segments } = withPageData(data);
  const answer = { ...withPageData(data), status: 200, segments: encodeSegments(segments, fileOf) };
  const response = new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  return ((await readPageData(response)) as PageDataResponse).segments[1]!.pageData;
}

function throughStream(data: unknown): unknown {
  return new Function(`return ${dataScript(data, 'x/page.server.ts')}`)() as unknown;
}

const shared = { id: 7 };
const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic.self = cyclic;
const nullProto = Object.assign(Object.create(null) as object, { a: 1 });

const RICH: [string, unknown][] = [
  ['a Date', { at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)) }],
  ['an invalid Date', new Date(NaN)],
  [
    'a Map with object keys',
    new Map<unknown, unknown>([
      ['k', 1],
      [{ o: 1 }, [2]],
    ]),
  ],
  ['a Set', new Set(['a', 1, null])],
  ['a BigInt', { big: 2n ** 70n, negative: -5n }],
  ['a URL', new URL('https://example.com/a?b=c#d')],
  ['a RegExp', [/^a+\/b$/giu]],
  ['undefined in an object', { a: undefined, b: 1 }],
  ['undefined in an array', [undefined, 1]],
  ['a hole in an array', [1, , 3]], // eslint-disable-line no-sparse-arrays
  ['NaN and the infinities', [NaN, Infinity, -Infinity]],
  ['-0', { zero: -0 }],
  ['a null prototype', nullProto],
  ['NaN alone', NaN],
];

describe('rich data arrives as it left', () => {
  test.each(RICH)('%s, in the document', (_, value) => {
    expect(throughDocument(value)).toStrictEqual(value);
  });
  test.each(RICH)('%s, in page data', async (_, value) => {
    expect(await throughPageData(value)).toStrictEqual(value);
  });
  test.each(RICH)('%s, streamed', (_, value) => {
    expect(throughStream(value)).toStrictEqual(value);
  });

  test('repeated and cyclic references stay one object, every way', async () => {
    const value = { a: shared, b: [shared], cyclic };
    for (const got of [throughDocument(value), await throughPageData(value), throughStream(value)]) {
      const { a, b, cyclic: loop } = got as typeof value;
      expect(a).toEqual(shared);
      expect(b[0]).toBe(a);
      expect(loop.self).toBe(loop);
    }
  });

  test('a streamed loader that returned nothing settles its place with undefined, not as an error', () => {
    // JSON would drop the key, and a payload with no `value` reads as a failure.
    const payload = new Function(`return {"value":${dataScript(undefined, 'x/page.server.ts')}}`)() as object;
    expect(Object.hasOwn(payload, 'value')).toBe(true);
  });

  test('a -0 keeps its sign (toStrictEqual alone would not tell)', async () => {
    for (const got of [throughDocument(-0), await throughPageData(-0), throughStream(-0)]) {
      expect(Object.is(got, -0)).toBe(true);
    }
  });

  test('rich data in a slot is put back in its place', async () => {
    const at = new Date(0);
    const page = state([
      {
        dir: '',
        files: {},
        slots: {
          'the modal': {
            segments: [{ dir: '@the modal', files: { page: '@the modal/page.tsx' }, pageData: { at } }],
            params: {},
            shows: 'page',
          },
        },
      },
    ]);
    const script = pageStateScript(page, fileOf);
    expect(script).toContain('s.segments[0].slots["the modal"].segments[0].pageData=');
    const evaluated = new Function(`return ${script}`)() as PageState;
    expect(evaluated.segments[0]!.slots!['the modal']!.segments[0]!.pageData).toStrictEqual({ at });

    const answer: InterceptedAnswer = {
      buildId: 'b',
      url: '/x',
      status: 200,
      intercept: { at: '', slot: 'the modal', state: { ...page.segments[0]!.slots!['the modal']! } },
    };
    answer.intercept.state.segments = encodeSegments(answer.intercept.state.segments, fileOf);
    const response = new Response(JSON.stringify(answer), {
      headers: { 'content-type': 'application/json' },
    });
    const read = (await readPageData(response)) as InterceptedAnswer;
    expect(read.intercept.state.segments[0]).toStrictEqual({
      dir: '@the modal',
      files: { page: '@the modal/page.tsx' },
      pageData: { at },
    });
  });
});

describe('plain data costs nothing more', () => {
  test('a plain page state is the same JSON as before, and page data has nothing encoded', () => {
    const plain = withPageData({ items: [{ id: 1, title: 'a', tags: ['x'], ok: true, none: null }] });
    expect(pageStateScript(plain, fileOf)).toBe(serializeForScript(plain));
    expect(encodeSegments(plain.segments, fileOf)).toBe(plain.segments);
  });

  test('only the rich value is encoded; the envelope and plain neighbours stay readable JSON', () => {
    const page = withPageData({ at: new Date(0) });
    const [root, leaf] = encodeSegments(page.segments, fileOf);
    expect(root).toBe(page.segments[0]);
    expect(leaf).toEqual({
      dir: 'x',
      files: { page: 'x/page.tsx' },
      encoded: { pageData: expect.any(Array) },
    });
    expect(page.segments[1]!.pageData).toEqual({ at: new Date(0) }); // the state itself is untouched
    expect(pageStateScript(page, fileOf)).toMatch(
      /^\(function\(s\)\{s\.segments\[1\]\.pageData=\{at:new Date\(0\)\};return s\}\(\{"buildId":"b"/,
    );
  });

  test('a streamed place (a promise) is left to its streamed script', () => {
    const pending = track(new Promise(() => {}));
    const page = state([{ dir: '', files: {}, pageData: pending, layoutData: new Map() }]);
    const evaluated = new Function(`return ${pageStateScript(page, fileOf)}`)() as PageState;
    expect(evaluated.segments[0]).toStrictEqual({ dir: '', files: {}, layoutData: new Map() });
  });

  test.each([
    ['a string', 's', true],
    ['nested plain objects and arrays', { a: [{ b: 1.5 }, 'c', null, false] }, true],
    ['the same string twice', ['s', 's'], true],
    ['an object twice', [shared, shared], false],
    ['a cycle', cyclic, false],
    ['undefined as a value', { a: undefined }, false],
    ['a hole', [1, , 2], false], // eslint-disable-line no-sparse-arrays
    ['-0', [-0], false],
    ['NaN', NaN, false],
    ['a Date', new Date(0), false],
    ['a null prototype', nullProto, false],
    ['an own __proto__ key', JSON.parse('{"__proto__":{"x":1}}') as unknown, false],
    ['a symbol key', { [Symbol('s')]: 1 }, false],
    ['a function', () => 1, false],
  ])('isPlainJson: %s → %s', (_, value, plain) => {
    expect(isPlainJson(value)).toBe(plain);
  });

  test('production leaves symbol keys to JSON, which drops them; the rest of the check is the same', () => {
    expect(isPlainJson({ a: 1, [Symbol('s')]: 1 }, false)).toBe(true);
    expect(isPlainJson({ a: new Date(0) }, false)).toBe(false);
    expect(isPlainJson({ a: undefined }, false)).toBe(false);
    const shared = { x: 1 };
    expect(isPlainJson([shared, shared], false)).toBe(false);
  });
});

describe('script-safe escaping of rich data', () => {
  const attack = '</script><script>alert(1)</script><!-- \u2028\u2029 &amp;';
  const hostile = {
    string: attack,
    map: new Map([[attack, attack]]),
    set: new Set([attack]),
    regexp: new RegExp('</script><!--\u2028', 'g'),
    // A non-special URL keeps `<` and `>` as they are in its path.
    url: new URL('data:text/html,</script><!--<script>alert(1)</script>'),
    at: new Date(0),
  };

  test.each([
    ['the document', () => pageStateScript(withPageData(hostile), fileOf)],
    ['a streamed script', () => dataScript(hostile, 'x/page.server.ts')],
  ])('%s never holds a raw <, >, & or line separator, and reads back the same', (_, make) => {
    const script = make();
    for (const raw of ['<', '>', '&', '\u2028', '\u2029']) expect(script).not.toContain(raw);
    const value = new Function(`return ${script}`)() as PageState | typeof hostile;
    const got = 'segments' in value ? value.segments[1]!.pageData : value;
    expect(got).toStrictEqual(hostile);
  });

  test('page data is JSON, which the page never runs: it reads back the same', async () => {
    expect(await throughPageData(hostile)).toStrictEqual(hostile);
  });
});

describe('what cannot be sent', () => {
  class Author {
    name = 'a';
  }
  test.each([
    ['a function', { author: { createdBy: () => 1 } }, 'data.author.createdBy', 'a function'],
    ['a symbol', { list: [1, Symbol('s')] }, 'data.list[1]', 'a symbol'],
    ['a class instance', { author: new Author(), at: new Date(0) }, 'data.author', 'an instance of Author'],
    ['a promise', { later: Promise.resolve(1) }, 'data.later', 'an instance of Promise'],
    ['inside a Map', { tags: new Map([['x', () => 1]]) }, 'data.tags.get("x")', 'a function'],
    ['the value itself', () => 1, 'data', 'a function'],
  ])('%s names the loader file and the path, every way', async (_, value, path, what) => {
    const expected = new UnsendableDataError('x/page.server.ts', path, what);
    const attempts = [
      () => pageStateScript(withPageData(value), fileOf),
      () => encodeSegments(withPageData(value).segments, fileOf),
      () => dataScript(value, 'x/page.server.ts'),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow(UnsendableDataError);
      expect(attempt).toThrow(expected.message);
    }
    expect(expected.message).toContain(
      `x/page.server.ts: load returned data the browser cannot receive: ${path} is ${what}.`,
    );
  });

  test('the loader file is found in the route tree', () => {
    const tree = buildRouteTree([
      'layout.server.ts',
      'layout.tsx',
      'page.tsx',
      '(shop)/photos/[id]/page.server.js',
      '(shop)/photos/[id]/page.tsx',
    ]);
    expect(loaderFile(tree, '', 'layoutData')).toBe('layout.server.ts');
    expect(loaderFile(tree, '(shop)/photos/[id]', 'pageData')).toBe('(shop)/photos/[id]/page.server.js');
    expect(loaderFile(tree, 'gone', 'pageData')).toBe('gone/page.server');
  });
});
