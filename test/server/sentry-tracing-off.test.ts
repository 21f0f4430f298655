/**
 * The Node SDK as the server starts it with tracing off (`startSentry`, a traces rate of 0), sent
 * to an envelope receiver on 127.0.0.1: a loader's error still arrives with its digest, route and
 * URL, and each request still has a Sentry scope of its own, though the SDK's HTTP integration
 * is left out for its cost per request.
 */
import * as Sentry from '@sentry/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LoadArgs } from '../../client/index';
import { createApp } from '../../server/create-app';
import type { RouteModules } from '../../server/render/route-runtime';
import { startSentry } from '../../server/sentry/sentry-init.mjs';
import { sentryReporter } from '../../server/sentry/sentry-reporter';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../helpers/envelope-receiver';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server';
import { eventsOf, titleOf, type SentryEvent } from '../helpers/sentry-events';
import { basicApp } from './fixture-app';

/** The basic fixture, and a loader that leaves a breadcrumb and a tag on its request's scope, then throws. */
const modules: RouteModules = {
  ...basicApp,
  'lab/crumb/[who]/page.tsx': async () => ({ default: () => null }),
  'lab/crumb/[who]/page.server.ts': async () => ({
    load({ params }: LoadArgs<{ who: string }>) {
      Sentry.addBreadcrumb({ message: `crumb of ${params.who}` });
      Sentry.setTag('who', params.who);
      throw new Error(`${params.who} failed`);
    },
  }),
};

let receiver: EnvelopeReceiver;
let server: LoopbackServer;

beforeAll(async () => {
  receiver = await startEnvelopeReceiver();
  const dsn = `http://publickey@127.0.0.1:${receiver.port}/123`;
  startSentry(Sentry, {
    dsn,
    environment: undefined,
    release: 'test',
    sampleRate: 1,
    tracesSampleRate: 0,
    untraced: () => false,
    relayedTo: undefined,
  });
  const logger = { error: () => {}, info: () => {} };
  server = await listenOnLoopback(
    createApp({ modules, logger, sentry: { dsn }, reporter: sentryReporter(Sentry) }),
  );
});
afterAll(async () => {
  await server?.close();
  await Sentry.close(2_000);
  await receiver?.close();
});

/** The event whose title is `title`, once it arrived. */
async function eventTitled(title: string) {
  const find = () => eventsOf(receiver).find((e) => titleOf(e.payload) === title)?.payload;
  await expect.poll(find, { timeout: 10_000 }).toBeDefined();
  return find()!;
}

test('a loader error arrives with its digest, route and URL (no query); no HTTP or Express integration runs', async () => {
  const page = await fetch(`${server.url}/lab/throws?private=1`);
  expect(page.status).toBe(500);
  const digest = /Digest: <code>([0-9a-f]{10})<\/code>/.exec(await page.text())?.[1];
  expect(digest).toBeDefined();
  const event = await eventTitled('load exploded with a private detail');
  expect(event.tags).toEqual({ digest, route: '/lab/throws', source: 'load' });
  expect(event.transaction).toBe('/lab/throws');
  expect(event.request).toEqual({ method: 'GET', url: `${server.url}/lab/throws` });
  expect(Sentry.getClient()!.getIntegrationByName('Http')).toBeUndefined();
  expect(Sentry.getClient()!.getIntegrationByName('Express')).toBeUndefined();
});

test('each request has its own scope: one request’s breadcrumb, tag and trace never reach another’s event', async () => {
  await fetch(`${server.url}/lab/crumb/ada`);
  await fetch(`${server.url}/lab/crumb/bob`);
  const [ada, bob] = [await eventTitled('ada failed'), await eventTitled('bob failed')];
  // Breadcrumbs the process left before the request (the test's own fetch calls) have no message.
  const crumbs = (event: SentryEvent) => event.breadcrumbs?.flatMap((b) => b.message ?? []);
  expect(crumbs(ada)).toEqual(['crumb of ada']);
  expect(crumbs(bob)).toEqual(['crumb of bob']);
  expect([ada.tags?.who, bob.tags?.who]).toEqual(['ada', 'bob']);
  expect(ada.contexts?.trace?.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(bob.contexts?.trace?.trace_id).not.toBe(ada.contexts?.trace?.trace_id);
});
