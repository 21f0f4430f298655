/**
 * Server transactions with the real Sentry Node SDK, sent to an envelope receiver on 127.0.0.1:
 * each request is named by its route, never its path, with a span per loader, middleware,
 * action, route handler, the render to the shell and each streamed place; the status is on it,
 * an error reported inside it is linked to it, and the document carries its trace. The privacy
 * rules are the instrument module's own (`beforeSendSpan`).
 */
import * as Sentry from '@sentry/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import type { RouteModules } from '../../server/render/route-runtime';
import { DATA_COLLECTION, scrubSpan } from '../../server/sentry/sentry-privacy.mjs';
import { sentryReporter } from '../../server/sentry/sentry-reporter';
import { sentryTracer } from '../../server/sentry/sentry-tracer';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../helpers/envelope-receiver';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server';
import { eventsOf, itemsOf } from '../helpers/sentry-events';
import { basicApp } from './fixture-app';

interface Span {
  name: string;
  trace_id: string;
  span_id: string;
  parent_span_id?: string;
  is_segment: boolean;
  attributes: Record<string, { value: unknown }>;
}

/** The basic fixture with a middleware and a route handler, and one action. */
const modules: RouteModules = {
  ...basicApp,
  'middleware.ts': async () => ({ middleware: () => undefined }),
  'api/items/[id]/route.ts': async () => ({ GET: () => Response.json({ ok: true }) }),
};
const ECHO = actionId('basic/actions.ts', 'echo');
const actions = {
  [ECHO]:
    async () =>
    (...args: unknown[]) => ({ args }),
};

const ARRIVAL = { timeout: 10_000 };
let receiver: EnvelopeReceiver;
let traced: LoopbackServer;
let untraced: LoopbackServer;
const logger = { error: () => {}, info: () => {} };

beforeAll(async () => {
  receiver = await startEnvelopeReceiver();
  const dsn = `http://publickey@127.0.0.1:${receiver.port}/123`;
  Sentry.init({
    dsn,
    tracesSampleRate: 1,
    dataCollection: DATA_COLLECTION,
    beforeSendSpan: scrubSpan,
    integrations: (defaults) => [
      ...defaults.filter(({ name }) => !['Http', 'NodeFetch'].includes(name)),
      // The receiver runs in this process: its own requests are not the app's.
      Sentry.httpIntegration({ ignoreIncomingRequests: (path) => path.startsWith('/api/123/') }),
    ],
  });
  const common = { modules, actions, logger, sentry: { dsn }, reporter: sentryReporter(Sentry) };
  traced = await listenOnLoopback(createApp({ ...common, tracer: sentryTracer(Sentry) }));
  untraced = await listenOnLoopback(createApp(common));
});
afterAll(async () => {
  await Promise.all([traced?.close(), untraced?.close()]);
  await Sentry.close(2_000);
  await receiver?.close();
});

const allSpans = () => itemsOf<{ items: Span[] }>(receiver, 'span').flatMap((s) => s.payload.items);
const value = (span: Span | undefined, key: string) => span?.attributes[key]?.value;

/** The transaction (segment span) whose `url.path` is `path`, once it and `children` arrived. */
async function transaction(path: string, children: string[] = []) {
  const find = () => {
    const segment = allSpans().find((s) => s.is_segment && value(s, 'url.path') === path);
    const below = allSpans().filter((s) => segment && value(s, 'sentry.segment.id') === segment.span_id);
    return { segment, below, names: below.filter((s) => !s.is_segment).map((s) => s.name) };
  };
  await expect
    .poll(() => children.every((name) => find().names.includes(name)) && !!find().segment, ARRIVAL)
    .toBe(true);
  const found = find();
  return { ...found, segment: found.segment! };
}

describe('a transaction per request, named by its route', () => {
  test('a document: GET /photos/[id], a span per loader and the render, the status, and its trace in the page', async () => {
    const res = await fetch(`${traced.url}/photos/7?token=secret`, {
      headers: { cookie: 'session=private' },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    const { segment, names } = await transaction('/photos/7', [
      'middleware middleware.ts',
      'load layout.server.ts',
      'load photos/[id]/page.server.ts',
      'render /photos/[id]',
    ]);
    expect(segment.name).toBe('GET /photos/[id]');
    expect(value(segment, 'sentry.segment.name.source')).toBe('route');
    expect(value(segment, 'http.route')).toBe('/photos/[id]');
    expect(value(segment, 'switchyard.request')).toBe('document');
    expect(value(segment, 'http.response.status_code')).toBe(200);
    expect(names).toHaveLength(4);
    // The browser's page load continues this trace.
    const trace = /"sentryTrace":"([0-9a-f]{32})-[0-9a-f]{16}-1","baggage":"([^"]+)"/.exec(html);
    expect(trace?.[1]).toBe(segment.trace_id);
    expect(trace?.[2]).toContain(`sentry-trace_id=${segment.trace_id}`);
    // No query string, cookie, header or address in what was sent.
    const sent = JSON.stringify(allSpans().filter((s) => s.trace_id === segment.trace_id));
    for (const secret of ['secret', 'private', 'user_agent', '127.0.0.1:' + traced.port + '/photos/7?'])
      expect(sent).not.toContain(secret);
  });

  test('page data sent with sentry-trace and baggage joins the browser’s trace', async () => {
    const traceId = '0123456789abcdef0123456789abcdef';
    const parent = '0123456789abcdef';
    const res = await fetch(`${traced.url}/photos/8?_sy=%2F`, {
      headers: {
        'sentry-trace': `${traceId}-${parent}-1`,
        baggage: `sentry-trace_id=${traceId},sentry-public_key=publickey`,
      },
    });
    expect(res.status).toBe(200);
    const { segment } = await transaction('/photos/8', ['load photos/[id]/page.server.ts']);
    expect(segment).toMatchObject({ name: 'GET /photos/[id]', trace_id: traceId, parent_span_id: parent });
    expect(value(segment, 'switchyard.request')).toBe('page-data');
  });

  test('a loader error is linked to its transaction, which has the 500; a streamed place has its span', async () => {
    expect((await fetch(`${traced.url}/lab/throws`)).status).toBe(500);
    const { segment } = await transaction('/lab/throws', ['load lab/throws/page.server.ts']);
    expect(segment.name).toBe('GET /lab/throws');
    expect(value(segment, 'http.response.status_code')).toBe(500);
    await expect.poll(() => eventsOf(receiver).length, ARRIVAL).toBeGreaterThan(0);
    const event = eventsOf(receiver).find((e) => e.payload.tags?.route === '/lab/throws');
    expect(
      (event?.payload as { contexts?: { trace?: { trace_id?: string } } }).contexts?.trace?.trace_id,
    ).toBe(segment.trace_id);

    expect((await fetch(`${traced.url}/lab/streamed-error`)).status).toBe(200);
    await transaction('/lab/streamed-error', [
      'render /lab/streamed-error',
      'stream lab/streamed-error#pageData',
      'load lab/streamed-error/page.server.ts',
    ]);
  });

  test('an action is POST action:<its name>, with its span; an unknown id is one name', async () => {
    const call = (id: string) =>
      fetch(traced.url + actionUrl(id), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [ACTION_HEADER]: '1', origin: traced.url },
        body: JSON.stringify({ args: ['x'] }),
      });
    expect((await call(ECHO)).status).toBe(200);
    const { segment } = await transaction(actionUrl(ECHO), ['action echo']);
    expect(segment.name).toBe('POST action:echo');
    expect(value(segment, 'switchyard.request')).toBe('action');
    const guess = `${'0'.repeat(12)}#guess`;
    expect((await call(guess)).status).toBe(404);
    expect((await transaction(actionUrl(guess))).segment.name).toBe('POST action:(unknown)');
  });

  test('a route handler is named by its pattern; a URL no route matches is one name, never its path', async () => {
    expect((await fetch(`${traced.url}/api/items/3`)).status).toBe(200);
    const handler = await transaction('/api/items/3', ['handler api/items/[id]/route.ts']);
    expect(handler.segment.name).toBe('GET /api/items/[id]');
    expect(value(handler.segment, 'switchyard.request')).toBe('handler');
    expect((await fetch(`${traced.url}/no/such/page`)).status).toBe(404);
    expect((await transaction('/no/such/page')).segment.name).toBe('GET (no route)');
  });

  test('without the tracer the SDK’s transaction is left as it was: no span of Switchyard’s', async () => {
    const res = await fetch(`${untraced.url}/photos/9`);
    expect(await res.text()).not.toContain('sentryTrace');
    const { segment, names } = await transaction('/photos/9');
    expect(segment.name).toBe('GET');
    expect(names).toEqual([]);
  });
});
