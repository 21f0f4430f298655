/**
 * Decoding action arguments: no key of the payload reaches a prototype, caps on depth
 * and size, forms as FormData, and no other media type.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  countFields,
  decodeActionArgs,
  MAX_ARG_DEPTH,
  MAX_ARG_ENTRIES,
} from '../../server/actions/action-args';
import { HttpError } from '../../server/http/http-error';

const JSON_TYPE = 'application/json; charset=utf-8';
const decodeJson = (text: string) => decodeActionArgs(JSON_TYPE, Buffer.from(text));

/** The HttpError a decode fails with. */
async function failure(decoding: Promise<unknown>): Promise<HttpError> {
  const error = await decoding.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

/** `levels` arrays, one inside the other, around a 1. */
const nested = (levels: number) => '['.repeat(levels) + '1' + ']'.repeat(levels);

afterEach(() => {
  // A failing pollution test must not leak into the next one.
  for (const proto of [Object.prototype, Array.prototype, Function.prototype]) {
    delete (proto as unknown as Record<string, unknown>).polluted;
  }
});

describe('JSON arguments', () => {
  test('are the args array, values intact', async () => {
    const args = await decodeJson('{"args":["a",1,true,null,{"x":[1,{"y":"z"}]},[]]}');
    expect(args).toEqual(['a', 1, true, null, { x: [1, { y: 'z' }] }, []]);
    expect(Object.getPrototypeOf(args[4])).toBe(Object.prototype);
  });

  test('__proto__ reaches no prototype, in the decoded value or in what the app makes of it', async () => {
    const [arg] = await decodeJson('{"args":[{"__proto__":{"polluted":1},"name":"ok"}]}');
    expect(arg).toEqual({ name: 'ok' });
    expect(Object.keys(arg as object)).toEqual(['name']);
    expect(Object.getPrototypeOf(arg)).toBe(Object.prototype);
    // Object.assign sets `__proto__` through the setter: kept, it would give `copy` a prototype.
    const assigned: Record<string, unknown> = Object.assign({}, arg);
    const spread: Record<string, unknown> = { ...(arg as object) };
    expect(assigned.polluted).toBeUndefined();
    expect(spread.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('constructor.prototype and nested __proto__ are dropped at every depth', async () => {
    const [arg] = await decodeJson(
      '{"args":[{"a":{"constructor":{"prototype":{"polluted":1}}},"b":[{"__proto__":{"polluted":1}}],"prototype":{"polluted":1}}]}',
    );
    expect(arg).toEqual({ a: {}, b: [{}] });
    naiveMerge({ a: {} }, arg as Record<string, unknown>);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('the payload the tests use does pollute when merged raw (the drop is what saves us)', () => {
    const raw = JSON.parse('{"a":{"constructor":{"prototype":{"polluted":1}}}}') as Record<string, unknown>;
    naiveMerge({ a: {} }, raw);
    expect(({} as Record<string, unknown>).polluted).toBe(1);
  });

  test(`nesting ${MAX_ARG_DEPTH} deep passes, ${MAX_ARG_DEPTH + 1} is a 400 naming the cap`, async () => {
    expect(await decodeJson(`{"args":[${nested(MAX_ARG_DEPTH)}]}`)).toHaveLength(1);
    const error = await failure(decodeJson(`{"args":[${nested(MAX_ARG_DEPTH + 1)}]}`));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Action arguments nest deeper than 32 levels.');
  });

  test('a very deep payload fails fast on the cap', async () => {
    expect((await failure(decodeJson(`{"args":[${nested(100_000)}]}`))).status).toBe(400);
  });

  test(`${MAX_ARG_ENTRIES} keys and items pass, one more is a 400 naming the cap`, async () => {
    // One argument holding MAX - 1 items: MAX entries in all.
    const fits = JSON.stringify({ args: [Array(MAX_ARG_ENTRIES - 1).fill(0)] });
    expect(await decodeJson(fits)).toHaveLength(1);
    const keys = Object.fromEntries(Array.from({ length: MAX_ARG_ENTRIES }, (_, i) => [`k${i}`, i]));
    const error = await failure(decodeJson(JSON.stringify({ args: [keys] })));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Action arguments hold more than 10000 keys and items.');
  });

  test('the cap counts across arguments', async () => {
    const half = Array(MAX_ARG_ENTRIES / 2).fill(0);
    expect((await failure(decodeJson(JSON.stringify({ args: [half, half] })))).status).toBe(400);
  });

  test.each([
    ['not JSON', '{"args":[', 'The request body is not valid JSON.'],
    ['no args', '{"argv":[]}', 'The JSON body must be an object with an "args" array.'],
    ['args not an array', '{"args":{"0":1}}', 'The JSON body must be an object with an "args" array.'],
    ['a bare array', '[1,2]', 'The JSON body must be an object with an "args" array.'],
    ['null', 'null', 'The JSON body must be an object with an "args" array.'],
  ])('%s is a 400', async (_name, body, message) => {
    expect(await failure(decodeJson(body))).toMatchObject({ status: 400, message });
  });
});

describe('form arguments', () => {
  test('a urlencoded body is one FormData argument', async () => {
    const args = await decodeActionArgs(
      'application/x-www-form-urlencoded',
      Buffer.from('author=ada&text=Hello+there%21&__proto__=x'),
    );
    expect(args).toHaveLength(1);
    const form = args[0] as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect([...form.entries()]).toEqual([
      ['author', 'ada'],
      ['text', 'Hello there!'],
      ['__proto__', 'x'],
    ]);
  });

  test('a multipart body is one FormData argument, files included', async () => {
    const source = new FormData();
    source.set('text', 'Hi');
    source.set('photo', new Blob(['bytes'], { type: 'image/png' }), 'p.png');
    const encoded = new Request('http://x.invalid/', { method: 'POST', body: source });
    const body = Buffer.from(await encoded.arrayBuffer());
    const [form] = (await decodeActionArgs(encoded.headers.get('content-type')!, body)) as [FormData];
    expect(form.get('text')).toBe('Hi');
    const file = form.get('photo') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['p.png', 'image/png', 'bytes']);
  });

  test('a quoted boundary is read without its quotes, spaces and all', async () => {
    const body = Buffer.from('--a b\r\nContent-Disposition: form-data; name="text"\r\n\r\nHi\r\n--a b--\r\n');
    const type = 'multipart/form-data; name="x;boundary=evil"; boundary="a b"';
    const [form] = (await decodeActionArgs(type, body)) as [FormData];
    expect([...form.entries()]).toEqual([['text', 'Hi']]);
  });

  test.each([
    ['multipart/form-data', 'A multipart/form-data body needs a boundary parameter in its Content-Type.'],
    [
      'multipart/form-data; name="boundary=abc"',
      'A multipart/form-data body needs a boundary parameter in its Content-Type.',
    ],
    [
      'multipart/form-data; boundary="abc',
      'A multipart/form-data body needs a boundary parameter in its Content-Type.',
    ],
    ...['""', '"abc "', 'ab!c', 'x'.repeat(71)].map((boundary) => [
      `multipart/form-data; boundary=${boundary}`,
      "The multipart boundary must be 1 to 70 letters, digits, spaces or '()+_,-./:=? and not end in a space.",
    ]),
  ])('%j is a 400: %s', async (type, message) => {
    const error = await failure(decodeActionArgs(type, Buffer.from('--abc\r\n\r\n1\r\n--abc--\r\n')));
    expect(error).toMatchObject({ status: 400, message });
  });

  test('a broken multipart body is a 400', async () => {
    const error = await failure(
      decodeActionArgs('multipart/form-data; boundary=abc', Buffer.from('--abc\r\nnonsense')),
    );
    expect(error).toMatchObject({ status: 400, message: 'The form body could not be parsed.' });
  });

  test(`more than ${MAX_ARG_ENTRIES} fields is a 400`, async () => {
    const body = Buffer.from(Array.from({ length: MAX_ARG_ENTRIES + 1 }, (_, i) => `f${i}=1`).join('&'));
    const error = await failure(decodeActionArgs('application/x-www-form-urlencoded', body));
    expect(error.status).toBe(400);
  });

  test('fields count against what earlier parts of the request used, before the parser runs', async () => {
    const body = Buffer.from('a=1&b=2');
    const form = 'application/x-www-form-urlencoded';
    const budget = { entries: MAX_ARG_ENTRIES - 2 };
    await decodeActionArgs(form, body, budget);
    expect(budget.entries).toBe(MAX_ARG_ENTRIES);
    const error = await failure(decodeActionArgs(form, body, { entries: MAX_ARG_ENTRIES - 1 }));
    expect(error).toMatchObject({
      status: 400,
      message: `Action arguments hold more than ${MAX_ARG_ENTRIES} keys and items.`,
    });
    // JSON arguments draw on the same budget.
    const json = await failure(
      decodeActionArgs(JSON_TYPE, Buffer.from('{"args":[[1,2]]}'), { entries: MAX_ARG_ENTRIES - 2 }),
    );
    expect(json.status).toBe(400);
  });
});

describe('other media types', () => {
  test.each([['text/plain'], ['text/plain; charset=utf-8'], ['application/xml'], [undefined], ['']])(
    '%s is a 415, even with a JSON body',
    async (type) => {
      const error = await failure(decodeActionArgs(type, Buffer.from('{"args":[1]}')));
      expect(error.status).toBe(415);
      expect(error.message).toMatch(/^Server actions take application\/json, /);
    },
  );
});

/** The deep merge found in many apps: the shape prototype pollution feeds on. */
function naiveMerge(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
): Record<string, unknown> {
  for (const key in source) {
    const value = source[key];
    if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' && typeof target[key] !== 'function') target[key] = {};
      naiveMerge(target[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else {
      target[key] = value;
    }
  }
  return target;
}

describe('form bodies past the key cap', () => {
  const URLENCODED = 'application/x-www-form-urlencoded';

  test('200,000 urlencoded keys (400 KB) are refused before the parser sees them', async () => {
    const parse = vi.spyOn(Request.prototype, 'formData');
    try {
      const error = await failure(decodeActionArgs(URLENCODED, Buffer.from('a&'.repeat(200_000))));
      expect(error.status).toBe(400);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  test('so are more multipart parts than the cap', async () => {
    const part = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n';
    const body = Buffer.from(part.repeat(MAX_ARG_ENTRIES + 1) + '--b--\r\n');
    const parse = vi.spyOn(Request.prototype, 'formData');
    try {
      const error = await failure(decodeActionArgs('multipart/form-data; boundary=b', body));
      expect(error.status).toBe(400);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  test('a form with exactly the cap passes the count', () => {
    expect(
      countFields(Buffer.from('a=1&'.repeat(MAX_ARG_ENTRIES - 1) + 'a=1'), undefined, MAX_ARG_ENTRIES),
    ).toBe(MAX_ARG_ENTRIES);
    const multipart = Buffer.from('--b\r\n\r\n1\r\n'.repeat(3) + '--b--');
    expect(countFields(multipart, 'b', MAX_ARG_ENTRIES)).toBe(3);
  });

  test('a boundary= inside a quoted parameter is no boundary: the parts are counted by the real one', async () => {
    // Counted by "evil", the body would have no fields and reach the parser, which reads "real".
    const part = '--real\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n';
    const body = Buffer.from(part.repeat(MAX_ARG_ENTRIES + 1) + '--real--\r\n');
    const parse = vi.spyOn(Request.prototype, 'formData');
    try {
      const error = await failure(
        decodeActionArgs('multipart/form-data; name="x;boundary=evil"; boundary=real', body),
      );
      expect(error).toMatchObject({
        status: 400,
        message: `Action arguments hold more than ${MAX_ARG_ENTRIES} keys and items.`,
      });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});
