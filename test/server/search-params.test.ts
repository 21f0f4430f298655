/**
 * Validated search params: a page's `search` schema (Standard Schema v1) gives `load` and the
 * page its output; params it rejects are a 400 naming the parameter, for a document and page
 * data alike; a schema that throws is a server error with a digest.
 */
import { createElement } from 'react';
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import type { LoadArgs, PageProps } from '../../client/types';
import { createApp } from '../../server/create-app';
import type { StandardSchemaV1 } from '../../shared/standard-schema';
import { validateSearch } from '../../shared/standard-schema';
import { basicApp, demoApp } from './fixture-app';

/** `?page=<n>`, a positive whole number, 1 when absent; `async` answers through a promise. */
function pageSchema(async = false): StandardSchemaV1<unknown, { page: number }> {
  const check = (value: unknown) => {
    const raw = (value as Record<string, unknown>).page ?? '1';
    if (typeof raw !== 'string' || !/^[1-9]\d{0,5}$/.test(raw)) {
      return { issues: [{ message: 'Expected a positive whole number', path: [{ key: 'page' }] }] };
    }
    return { value: { page: Number(raw) } };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (v) => (async ? Promise.resolve(check(v)) : check(v)),
    },
  };
}

const throwing: StandardSchemaV1 = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: () => {
      throw new Error('schema broke');
    },
  },
};

function Page({ search, data }: PageProps<Record<string, string>, string, { page: number }>) {
  return createElement('p', null, `page ${search.page}, ${data}`);
}

function app() {
  const logger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  const route = (schema: StandardSchemaV1) => ({
    search: schema,
    load: ({ search }: LoadArgs<Record<string, string>, { page: number }>) => `loaded ${search.page}`,
  });
  const modules = {
    ...basicApp,
    'sought/page.tsx': async () => ({ default: Page }),
    'sought/page.server.ts': async () => route(pageSchema()),
    'sought-async/page.tsx': async () => ({ default: Page }),
    'sought-async/page.server.ts': async () => route(pageSchema(true)),
    'sought-broken/page.tsx': async () => ({ default: Page }),
    'sought-broken/page.server.ts': async () => route(throwing),
  };
  return { app: createApp({ modules, logger, reporter }), logger, reporter };
}

test('load and the page get the schema output', async () => {
  const res = await request(app().app).get('/sought?page=3');
  expect(res.status).toBe(200);
  expect(res.text).toContain('<p>page 3, loaded 3</p>');
});

test('an async validate is awaited', async () => {
  const res = await request(app().app).get('/sought-async');
  expect(res.status).toBe(200);
  expect(res.text).toContain('loaded 1');
});

test('page data carries the schema output', async () => {
  const res = await request(app().app).get('/sought?page=4&_sy=%2F');
  expect(res.status).toBe(200);
  expect((res.body as { search: unknown }).search).toEqual({ page: 4 });
});

test('invalid params are a 400 page naming the parameter', async () => {
  const res = await request(app().app).get('/sought?page=0');
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain('page: Expected a positive whole number');
});

test('invalid params in page data are a 400 the client router loads as a document', async () => {
  const res = await request(app().app).get('/sought-async?page=x&_sy=%2F');
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  expect(res.text).toContain('page: Expected a positive whole number');
});

test('a schema that throws is a 500 with a digest', async () => {
  const { app: server, logger } = app();
  const res = await request(server).get('/sought-broken');
  expect(res.status).toBe(500);
  expect(res.text).toMatch(/Digest: <code>[0-9a-f]{10}<\/code>/);
  expect(logger.error).toHaveBeenCalledWith(
    expect.any(String),
    expect.objectContaining({ message: 'schema broke' }),
  );
});

test('the demo validates the photo page’s ?before=', async () => {
  const server = createApp({ modules: demoApp, logger: { error: vi.fn(), info: vi.fn() } });
  const res = await request(server).get('/photos/3?before=soon');
  expect(res.status).toBe(400);
  expect(res.text).toContain('before: Expected a comment id');
});

test('validateSearch names each parameter of each issue', async () => {
  const schema: StandardSchemaV1 = {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: () => ({
        issues: [
          { message: 'Too long', path: ['q'] },
          { message: 'Bad', path: [{ key: 'a' }, 0] },
          { message: 'Odd' },
        ],
      }),
    },
  };
  expect(await validateSearch(schema, {})).toEqual({
    message: 'Invalid search params: q: Too long; a.0: Bad; Odd',
  });
  expect(await validateSearch(pageSchema(), { page: '2' })).toEqual({ value: { page: 2 } });
});
