/**
 * The browser's error hooks: one capture per error, none for router signals, errors kept until
 * the SDK has loaded, and no SDK at all without a config.
 * The SDK is a fake handed in, loaded when the test says.
 */
import { describe, expect, test, vi } from 'vitest';
import { createErrorReporting, type Capture } from '../../client/error-reporting';
import { notFound, redirect } from '../../shared/router-signals';
import type { BrowserSentryConfig } from '../../shared/sentry-browser-config';
import { deferred } from '../helpers/deferred';

const CONFIG: BrowserSentryConfig = {
  dsn: 'https://k@o1.ingest.example/1',
  tunnel: '/monitoring',
  release: 'b1',
};
const stack = { componentStack: '\n    at Bomb' };

function thrown(signal: () => never): unknown {
  try {
    signal();
  } catch (error) {
    return error;
  }
}

function setup({ configured = true } = {}) {
  const capture = vi.fn<Capture>();
  const sdk = deferred<Capture>();
  const loadSdk = vi.fn(() => sdk.promise);
  const log = vi.fn();
  const reporting = createErrorReporting(configured ? CONFIG : undefined, loadSdk, log);
  return { ...reporting.rootOptions, start: reporting.start, capture, sdk, loadSdk, log };
}

describe('with a Sentry config', () => {
  test('nothing loads until hydration is over (start) or an error comes', async () => {
    const quiet = setup();
    expect(quiet.loadSdk).not.toHaveBeenCalled();
    await Promise.all([quiet.start(), quiet.sdk.resolve(quiet.capture)]);
    expect(quiet.loadSdk).toHaveBeenCalledWith(CONFIG);
    // An error that broke hydration: no `start` will come, the error itself loads the SDK.
    const broken = setup();
    broken.onUncaughtError(new Error('hydration failed'), {});
    expect(broken.loadSdk).toHaveBeenCalledWith(CONFIG);
  });

  test('errors before the SDK has loaded wait, in order, and are sent once it has', async () => {
    const { onCaughtError, onUncaughtError, start, capture, sdk, loadSdk } = setup();
    const first = new Error('first');
    const second = new Error('second');
    onCaughtError(first, stack);
    onUncaughtError(second, {});
    expect(capture).not.toHaveBeenCalled();
    sdk.resolve(capture);
    await start();
    expect(loadSdk).toHaveBeenCalledTimes(1);
    expect(capture.mock.calls).toEqual([
      ['caught', first, stack],
      ['uncaught', second, {}],
    ]);
    const third = new Error('third');
    onCaughtError(third, stack);
    expect(capture).toHaveBeenLastCalledWith('caught', third, stack);
    expect(capture).toHaveBeenCalledTimes(3);
  });

  test('the SDK loads once, however often start is called', async () => {
    const { start, sdk, loadSdk, capture } = setup();
    const both = Promise.all([start(), start()]);
    sdk.resolve(capture);
    await both;
    await start();
    expect(loadSdk).toHaveBeenCalledTimes(1);
  });

  test('router signals are routing, not errors: neither logged nor sent', async () => {
    const { onCaughtError, start, capture, sdk, log } = setup();
    sdk.resolve(capture);
    await start();
    onCaughtError(thrown(notFound), stack);
    onCaughtError(
      thrown(() => redirect('/photos/1')),
      stack,
    );
    expect(capture).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  test('an SDK that fails to load is logged; the page goes on', async () => {
    const { onCaughtError, start, sdk, log } = setup();
    onCaughtError(new Error('lost'), stack);
    const started = start();
    sdk.reject(new Error('chunk failed'));
    await expect(started).resolves.toBeUndefined();
    expect(log).toHaveBeenLastCalledWith(
      'switchyard: the Sentry SDK did not load; errors are not reported',
      new Error('chunk failed'),
    );
  });
});

describe('with no Sentry config', () => {
  test('errors are logged as React would, and the SDK is never loaded', async () => {
    const { onCaughtError, onUncaughtError, onRecoverableError, start, loadSdk, log } = setup({
      configured: false,
    });
    const errors = [new Error('a'), new Error('b'), new Error('c')];
    onCaughtError(errors[0], stack);
    onUncaughtError(errors[1], {});
    onRecoverableError(errors[2], {});
    await start();
    expect(loadSdk).not.toHaveBeenCalled();
    expect(log.mock.calls).toEqual(errors.map((error) => [error]));
  });
});
