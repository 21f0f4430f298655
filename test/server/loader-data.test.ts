/**
 * Loader data over HTTP: rich values reach the document and page data as devalue's forms, and
 * data that cannot be sent is a failure with a digest, a log naming the loader file and the
 * path to the value, and a report — the usual error page or page-data answer, never plain text.
 */
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { PageDataResponse } from '../../shared/page-data';
import type { PageState } from '../../shared/page-state';
import { basicApp } from './fixture-app';

function app() {
  const logger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  return { app: createApp({ modules: basicApp, logger, reporter }), logger, reporter };
}

const digestIn = (html: string) => /Digest: <code>([0-9a-f]{10})<\/code>/.exec(html)?.[1];

/** The page state as the browser's script engine reads it from the document. */
function stateIn(html: string): PageState {
  const script = /self\.__SWITCHYARD__=(.*?)<\/script>/s.exec(html)![1]!;
  return new Function(`return ${script}`)() as PageState;
}

test('a document holds rich loader data as JavaScript that builds the same values', async () => {
  const res = await request(app().app).get('/lab/rich/1');
  expect(res.status).toBe(200);
  const [layout, page] = stateIn(res.text).segments.slice(-2);
  expect(layout!.layoutData).toStrictEqual({
    since: new Date(Date.UTC(2020, 1, 29, 12)),
    visits: new Set([1, 2]),
  });
  const data = page!.pageData as Record<string, unknown> & { author: object; again: object };
  expect(data.at).toStrictEqual(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)));
  expect(data.big).toBe(2n ** 64n);
  expect(data.tags).toStrictEqual(
    new Map<unknown, unknown>([
      ['</script><!--', 1],
      [2, new Date(0)],
    ]),
  );
  expect(data.again).toBe(data.author);
  expect(Object.hasOwn(data, 'optional')).toBe(true);
  // The map key stays inside the script.
  expect(res.text.match(/<\/script>/g)?.length).toBe(res.text.match(/<script/g)?.length);
});

test('page data holds rich loader data in devalue JSON under `encoded`; held layout data is left out', async () => {
  const res = await request(app().app).get('/lab/rich/2?_sy=%2Flab%2Frich%2F1');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = res.body as PageDataResponse;
  const [layout, page] = body.segments.slice(-2);
  expect(layout).toEqual({
    dir: 'lab/rich',
    files: { layout: 'lab/rich/layout.tsx' },
    reuseLayoutData: true,
  });
  expect(page!.pageData).toBeUndefined();
  expect(page!.encoded!.pageData).toEqual(expect.any(Array));
  expect(body.buildId).toEqual(expect.any(String));
});

test('a plain loader keeps plain JSON in the document and in page data', async () => {
  const server = app().app;
  const html = (await request(server).get('/photos/7')).text;
  expect(html).toMatch(/self\.__SWITCHYARD__=\{"buildId"/);
  const res = await request(server).get('/photos/7?_sy=%2F');
  expect(res.body.segments.at(-1)).toEqual({
    dir: 'photos/[id]',
    files: { page: 'photos/[id]/page.tsx' },
    pageData: { id: '7', q: null, agent: null },
  });
});

test('data that cannot be sent: the error page with a digest, a log naming the file and path, a report', async () => {
  const { app: server, logger, reporter } = app();
  const res = await request(server).get('/lab/unsendable');
  expect(res.status).toBe(500);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.text).toContain('Application error: a server-side exception has occurred');
  const digest = digestIn(res.text);
  expect(digest).toMatch(/^[0-9a-f]{10}$/);
  expect(logger.error).toHaveBeenCalledTimes(1);
  const [line, error] = logger.error.mock.calls[0]! as [string, Error];
  expect(line).toBe(`[switchyard] GET /lab/unsendable failed, digest ${digest}`);
  expect(error.message).toContain(
    'lab/unsendable/page.server.ts: load returned data the browser cannot receive: data.author.createdBy is a function.',
  );
  expect(reporter.report).toHaveBeenCalledTimes(1);
  expect(reporter.report.mock.calls[0]![1]).toEqual({ route: '/lab/unsendable', digest, source: 'load' });
});

test('data that cannot be sent, as page data: the page-data error answer with the logged digest', async () => {
  const { app: server, logger } = app();
  const res = await request(server).get('/lab/unsendable?_sy=%2F');
  expect(res.status).toBe(500);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toEqual({ error: 'server', digest: expect.stringMatching(/^[0-9a-f]{10}$/) });
  const [line, error] = logger.error.mock.calls[0]! as [string, Error];
  expect(line).toBe(`[switchyard] GET /lab/unsendable failed, digest ${res.body.digest}`);
  expect(error.message).toContain('lab/unsendable/page.server.ts');
  expect(error.message).toContain('data.author.createdBy');
});

test('data that cannot be sent below a loading state: its place streams a digest, the log names file and path', async () => {
  const { app: server, logger, reporter } = app();
  const res = await request(server).get('/lab/unsendable-streamed');
  expect(res.status).toBe(200);
  const digest = /push\(\["lab\/unsendable-streamed#pageData",\{"digest":"([0-9a-f]{10})"\}\]\)/.exec(
    res.text,
  )?.[1];
  expect(digest).toBeDefined();
  const [line, error] = logger.error.mock.calls[0]! as [string, Error];
  expect(line).toBe(`[switchyard] GET /lab/unsendable-streamed load failed, digest ${digest}`);
  expect(error.message).toContain(
    'lab/unsendable-streamed/page.server.ts: load returned data the browser cannot receive: data.author is an instance of Author.',
  );
  expect(reporter.report.mock.calls[0]![1]).toEqual({
    route: '/lab/unsendable-streamed',
    digest,
    source: 'load',
  });
});
