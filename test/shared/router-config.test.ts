import { describe, expect, test } from 'vitest';
import { DEFAULT_ROUTER_CONFIG, parseRouterConfig } from '../../shared/router-config';

const FILE = 'app/switchyard.config.json';
const parse = (value: unknown) => parseRouterConfig(JSON.stringify(value), FILE);

describe('parseRouterConfig', () => {
  test('an empty file means the brief’s numbers: 30 s, 300 s, 5 at once, 3800 ms', () => {
    expect(parse({})).toEqual({
      prefetch: { freshMs: 30_000, staleMs: 300_000, concurrency: 5 },
      routeScriptTimeoutMs: 3_800,
    });
    expect(parse({})).toEqual(DEFAULT_ROUTER_CONFIG);
  });

  test('each setting overrides its default alone', () => {
    expect(parse({ prefetch: { freshMs: 5_000 } }).prefetch).toEqual({
      freshMs: 5_000,
      staleMs: 300_000,
      concurrency: 5,
    });
    expect(parse({ routeScriptTimeoutMs: 10_000 })).toMatchObject({
      routeScriptTimeoutMs: 10_000,
      prefetch: DEFAULT_ROUTER_CONFIG.prefetch,
    });
  });

  test.each([
    ['{', 'not valid JSON'],
    ['[]', 'the file must be an object'],
    ['{"prefetch": 3}', '"prefetch" must be an object'],
    [
      '{"prefetch": {"freshMS": 1}}',
      'unknown setting "prefetch.freshMS"; known: freshMs, staleMs, concurrency',
    ],
    ['{"timeout": 1}', 'unknown setting "timeout"'],
    ['{"prefetch": {"freshMs": -1}}', 'prefetch.freshMs must be a number of at least 0, got -1'],
    ['{"prefetch": {"staleMs": "300s"}}', 'prefetch.staleMs must be a number of at least 0, got "300s"'],
    ['{"prefetch": {"concurrency": 0}}', 'prefetch.concurrency must be a number of at least 1, got 0'],
    ['{"prefetch": {"concurrency": 2.5}}', 'prefetch.concurrency must be a whole number'],
    ['{"routeScriptTimeoutMs": 0}', 'routeScriptTimeoutMs must be a number of at least 1, got 0'],
    [
      '{"prefetch": {"freshMs": 60000, "staleMs": 1000}}',
      'prefetch.staleMs must be at least prefetch.freshMs',
    ],
  ])('%s is refused: %s, naming the file', (text, message) => {
    expect(() => parseRouterConfig(text, FILE)).toThrow(`${FILE}: ${message}`);
  });
});
