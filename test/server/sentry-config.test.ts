/**
 * Sentry on the server without a network: settings read from the environment, the
 * instrument module that loads nothing without a DSN, and the reporter's tags on a fake SDK.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test, vi } from 'vitest';
import { readSentryConfig } from '../../server/sentry/sentry-config.mjs';
import * as serverPrivacy from '../../server/sentry/sentry-privacy.mjs';
import * as browserPrivacy from '../../shared/sentry-privacy';
import { sentryReporter, type SentryApi } from '../../server/sentry/sentry-reporter';

const DSN = 'https://public@o1.ingest.example/42';

describe('readSentryConfig', () => {
  test('no DSN, or an empty one, is no Sentry', () => {
    expect(readSentryConfig({}, 'b1')).toBeUndefined();
    expect(readSentryConfig({ SENTRY_DSN: ' ' }, 'b1')).toBeUndefined();
  });

  test('defaults: the build id as release, every error, no traces', () => {
    expect(readSentryConfig({ SENTRY_DSN: DSN }, 'b1')).toEqual({
      dsn: DSN,
      environment: undefined,
      release: 'b1',
      sampleRate: 1,
      tracesSampleRate: 0,
      tunnelPath: '/monitoring',
    });
  });

  test('the environment wins over the defaults', () => {
    const env = {
      SENTRY_DSN: DSN,
      SENTRY_ENVIRONMENT: 'staging',
      SENTRY_RELEASE: 'v2',
      SENTRY_SAMPLE_RATE: '0.5',
      SENTRY_TRACES_SAMPLE_RATE: '0.1',
    };
    expect(readSentryConfig(env, 'b1')).toMatchObject({
      environment: 'staging',
      release: 'v2',
      sampleRate: 0.5,
      tracesSampleRate: 0.1,
    });
  });

  test.each([
    'garbage',
    'ftp://key@o1.ingest.sentry.io/123',
    'https://o1.ingest.sentry.io/123',
    'https://key@o1.ingest.sentry.io/123abc',
    'https://key@o1.ingest.sentry.io/123?x=1',
  ])('a DSN of the wrong shape (%j) stops the start-up, without repeating it', (dsn) => {
    let message = '';
    try {
      readSentryConfig({ SENTRY_DSN: dsn }, 'b1');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^SENTRY_DSN must be an http\(s\) Sentry DSN with a public key and a numeric project id/,
    );
    expect(message).not.toContain(dsn);
  });

  test.each(['1.5', '-1', 'half', 'NaN'])('a rate of %j stops the start-up with the name', (rate) => {
    expect(() => readSentryConfig({ SENTRY_DSN: DSN, SENTRY_TRACES_SAMPLE_RATE: rate }, 'b1')).toThrow(
      `SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1, got "${rate}".`,
    );
  });
});

// Each of these starts Node: on a loaded machine that alone can take seconds.
describe('server/instrument.mjs', { timeout: 60_000 }, () => {
  /** What `probe`, an ES module, prints as JSON in a process that preloads the module with a DSN. */
  function probeWithSentry<T>(probe: string, env: Record<string, string> = {}): T {
    const result = spawnSync(
      process.execPath,
      ['--import', './server/instrument.mjs', '--input-type=module', '-e', probe],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, SENTRY_DSN: 'http://public@127.0.0.1:9/1', ...env },
      },
    );
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as T;
  }

  /** Whether a process that preloads the module has the SDK loaded when the app starts. */
  function sdkLoaded(env: Record<string, string>): boolean {
    const probe = 'console.log(globalThis.__SENTRY__ !== undefined)';
    const result = spawnSync(process.execPath, ['--import', './server/instrument.mjs', '-e', probe], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
    });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as boolean;
  }

  test('with no DSN the SDK is never loaded, so it can open no socket', () => {
    expect(sdkLoaded({})).toBe(false);
    expect(sdkLoaded({ SENTRY_DSN: '' })).toBe(false);
  });

  test('with a DSN the SDK is initialised before the app runs', () => {
    // A port nothing listens on: nothing is captured here, so nothing is sent anyway.
    expect(sdkLoaded({ SENTRY_DSN: 'http://public@127.0.0.1:9/1' })).toBe(true);
  });

  test('the SDK it starts collects no personal data and scrubs query strings', () => {
    const probe = `
      const { getClient } = await import('@sentry/node');
      const options = getClient().getOptions();
      console.log(JSON.stringify({
        collect: options.dataCollection,
        crumb: options.beforeBreadcrumb({ data: { url: '/photos/1?token=secret' } }),
        event: options.beforeSend({ user: { id: 'u', ip_address: '203.0.113.9' } }, {}),
      }));`;
    expect(probeWithSentry(probe)).toEqual({
      collect: { userInfo: false, cookies: false, httpHeaders: false, urlQueryParams: false, httpBodies: [] },
      crumb: { data: { url: '/photos/1' } },
      event: { user: { id: 'u' } },
    });
  });

  /** Whether the SDK traces requests, and what a span it sends keeps, under `env`. */
  function tracing(env: Record<string, string>): { spans: boolean; scrubbed: unknown } {
    const probe = `
      const { getClient } = await import('@sentry/node');
      const { hasSpansEnabled } = await import('@sentry/core');
      const options = getClient().getOptions();
      console.log(JSON.stringify({
        spans: hasSpansEnabled(options),
        scrubbed: options.beforeSendSpan({ name: 'GET /photos/[id]', attributes: {
          'url.full': 'http://example.com/photos/1?token=secret', 'url.query': 'token=secret',
          'user_agent.original': 'Mozilla', 'http.request.header.accept': 'text/html',
          'client.address': '203.0.113.9', 'network.peer.address': '203.0.113.9',
          'http.response.status_code': 200,
        } }),
      }));`;
    return probeWithSentry(probe, env);
  }

  test('a traces rate of 0, or none, sets up no tracing; spans keep no header, address or query', () => {
    expect(tracing({}).spans).toBe(false);
    expect(tracing({ SENTRY_TRACES_SAMPLE_RATE: '0' }).spans).toBe(false);
    const on = tracing({ SENTRY_TRACES_SAMPLE_RATE: '0.5' });
    expect(on.spans).toBe(true);
    expect(on.scrubbed).toEqual({
      name: 'GET /photos/[id]',
      attributes: { 'url.full': 'http://example.com/photos/1', 'http.response.status_code': 200 },
    });
  });

  /** Whether Express's router runs as its file on disk says, once the SDK has started under `env`. */
  function routerAsWritten(env: Record<string, string>): boolean {
    const probe = `
      const { readFileSync } = await import('node:fs');
      const { createRequire } = await import('node:module');
      const require = createRequire(process.cwd() + '/node_modules/express/');
      const file = require.resolve('router/lib/layer.js');
      const Layer = require(file);
      console.log(readFileSync(file, 'utf8').includes(String(Layer.prototype.handleRequest)));`;
    return probeWithSentry(probe, env);
  }

  test('with tracing off no module is rewritten as it loads; with tracing on Express is, for its spans', () => {
    expect(routerAsWritten({})).toBe(true);
    expect(routerAsWritten({ SENTRY_TRACES_SAMPLE_RATE: '0' })).toBe(true);
    expect(routerAsWritten({ SENTRY_TRACES_SAMPLE_RATE: '1' })).toBe(false);
  });
});

describe.each([
  ['the browser', browserPrivacy],
  ['the server', serverPrivacy],
])('what %s sends to Sentry', (_side, { scrubBreadcrumb, scrubEvent }) => {
  test('breadcrumbs lose query strings and fragments', () => {
    const crumb = {
      category: 'fetch',
      data: {
        url: '/photos/1?email=a%40b.example#x',
        from: '/a?q=1',
        to: '/b',
        'http.query': 'q=1',
        status: 200,
      },
    };
    expect(scrubBreadcrumb(crumb)).toEqual({
      category: 'fetch',
      data: { url: '/photos/1', from: '/a', to: '/b', status: 200 },
    });
    const bare: { message: string; data?: undefined } = { message: 'no data' };
    expect(scrubBreadcrumb(bare)).toEqual({ message: 'no data' });
  });

  test('events lose the IP address and the query string', () => {
    const event = {
      user: { id: '7', ip_address: '{{auto}}' },
      request: { url: 'https://app.example/photos/1?token=t', query_string: 'token=t', method: 'GET' },
      tags: { route: '/photos/[id]' },
    };
    expect(scrubEvent(event)).toEqual({
      user: { id: '7' },
      request: { url: 'https://app.example/photos/1', method: 'GET' },
      tags: { route: '/photos/[id]' },
    });
  });
});

describe('sentryReporter', () => {
  function fakeSdk() {
    const scope = { setTags: vi.fn(), setTransactionName: vi.fn() };
    const captureException = vi.fn();
    const sdk = {
      withScope: (callback: (s: typeof scope) => unknown) => callback(scope),
      captureException,
    } as unknown as SentryApi;
    return { sdk, scope, captureException };
  }

  test('one capture per report, in its own scope, tagged with route, digest and source', () => {
    const { sdk, scope, captureException } = fakeSdk();
    const error = new Error('boom');
    sentryReporter(sdk).report(error, { route: '/photos/[id]', digest: 'abc1234567', source: 'load' });
    expect(captureException).toHaveBeenCalledTimes(1);
    expect(captureException).toHaveBeenCalledWith(error, {
      mechanism: { type: 'auto.function.switchyard.load', handled: false },
    });
    expect(scope.setTags).toHaveBeenCalledWith({
      route: '/photos/[id]',
      digest: 'abc1234567',
      source: 'load',
    });
    expect(scope.setTransactionName).toHaveBeenCalledWith('/photos/[id]');
  });

  test('no route tag when nothing matched', () => {
    const { sdk, scope } = fakeSdk();
    sentryReporter(sdk).report('thrown text', { route: null, digest: 'd', source: 'render' });
    expect(scope.setTags).toHaveBeenCalledWith({ digest: 'd', source: 'render' });
    expect(scope.setTransactionName).not.toHaveBeenCalled();
  });
});
