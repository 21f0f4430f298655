/**
 * The cross-site check for server actions: one row per request and the verdict.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, test } from 'vitest';
import { checkActionOrigin, type ActionGuardOptions, parseOrigin } from '../../server/actions/action-guard';

const direct: ActionGuardOptions = { trustProxy: false, allowedOrigins: [] };
const proxied: ActionGuardOptions = { trustProxy: true, allowedOrigins: [] };
const behindTwo: ActionGuardOptions = { trustProxy: 2, allowedOrigins: [] };
const noProxy: ActionGuardOptions = { trustProxy: 0, allowedOrigins: [] };
const withAdmin: ActionGuardOptions = {
  trustProxy: false,
  allowedOrigins: ['https://admin.example.com:443'],
};

type Row = [name: string, headers: IncomingHttpHeaders, options: ActionGuardOptions, allowed: boolean];

const rows: Row[] = [
  ['same origin', { host: 'app.example', origin: 'http://app.example' }, direct, true],
  ['same origin with a port', { host: 'localhost:3000', origin: 'http://localhost:3000' }, direct, true],
  ['explicit default port', { host: 'app.example:80', origin: 'http://app.example' }, direct, true],
  ['host in capitals', { host: 'APP.example', origin: 'http://app.example' }, direct, true],
  [
    'same-origin fetch metadata',
    { host: 'app.example', origin: 'http://app.example', 'sec-fetch-site': 'same-origin' },
    direct,
    true,
  ],
  [
    'cross-site fetch metadata',
    { host: 'app.example', origin: 'http://app.example', 'sec-fetch-site': 'cross-site' },
    direct,
    false,
  ],
  ['another site', { host: 'app.example', origin: 'http://evil.example' }, direct, false],
  ['our name as a prefix', { host: 'app.example', origin: 'http://app.example.evil.example' }, direct, false],
  ['our name as a suffix', { host: 'app.example', origin: 'http://evilapp.example' }, direct, false],
  [
    'our name as user info',
    { host: 'app.example', origin: 'http://app.example@evil.example' },
    direct,
    false,
  ],
  ['another port', { host: 'app.example', origin: 'http://app.example:8080' }, direct, false],
  ['another scheme', { host: 'app.example', origin: 'https://app.example' }, direct, false],
  ['a subdomain', { host: 'app.example', origin: 'http://www.app.example' }, direct, false],
  ['Origin null', { host: 'app.example', origin: 'null' }, direct, false],
  [
    'Origin null even if allowed',
    { host: 'app.example', origin: 'null' },
    { trustProxy: false, allowedOrigins: ['null'] },
    false,
  ],
  [
    'two Origins joined',
    { host: 'app.example', origin: 'http://app.example, http://evil.example' },
    direct,
    false,
  ],
  ['a non-http Origin', { host: 'app.example', origin: 'file://app.example' }, direct, false],
  [
    'no Origin, same-origin Referer',
    { host: 'app.example', referer: 'http://app.example/photos/3?x=1' },
    direct,
    true,
  ],
  [
    'no Origin, foreign Referer',
    { host: 'app.example', referer: 'http://evil.example/app.example' },
    direct,
    false,
  ],
  [
    'no Origin, Referer a near miss',
    { host: 'app.example', referer: 'http://app.example.evil.example/' },
    direct,
    false,
  ],
  ['no Origin, no Referer', { host: 'app.example' }, direct, false],
  ['no Host', { origin: 'http://app.example' }, direct, false],
  [
    'a Host that is a URL',
    { host: 'evil.example/@app.example', origin: 'http://evil.example' },
    direct,
    false,
  ],
  ['an allowed origin', { host: 'app.example', origin: 'https://admin.example.com' }, withAdmin, true],
  [
    'near miss of an allowed origin',
    { host: 'app.example', origin: 'https://admin.example.com.evil.example' },
    withAdmin,
    false,
  ],
  [
    'allowed origin, other scheme',
    { host: 'app.example', origin: 'http://admin.example.com' },
    withAdmin,
    false,
  ],
  [
    'forged X-Forwarded-Host without trustProxy',
    { host: 'app.example', origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' },
    direct,
    false,
  ],
  [
    'forged X-Forwarded-Proto without trustProxy',
    { host: 'app.example', origin: 'https://app.example', 'x-forwarded-proto': 'https' },
    direct,
    false,
  ],
  [
    'behind a trusted proxy',
    {
      host: 'internal:3000',
      origin: 'https://app.example',
      'x-forwarded-host': 'app.example',
      'x-forwarded-proto': 'https',
    },
    proxied,
    true,
  ],
  [
    'behind two trusted proxies',
    {
      host: 'internal:3000',
      origin: 'https://app.example',
      'x-forwarded-host': 'app.example',
      'x-forwarded-proto': 'https',
    },
    behindTwo,
    true,
  ],
  [
    'forged X-Forwarded-Host with no proxy counted',
    { host: 'app.example', origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' },
    noProxy,
    false,
  ],
  [
    'trusted proxy chain: the first entry counts',
    {
      host: 'internal:3000',
      origin: 'https://app.example',
      'x-forwarded-host': 'app.example, lb.internal',
      'x-forwarded-proto': 'https, http',
    },
    proxied,
    true,
  ],
  [
    'trusted proxy, Origin is the inner host',
    {
      host: 'internal:3000',
      origin: 'http://internal:3000',
      'x-forwarded-host': 'app.example',
      'x-forwarded-proto': 'https',
    },
    proxied,
    false,
  ],
  [
    'trusted proxy without X-Forwarded-Host uses Host',
    { host: 'app.example', origin: 'https://app.example', 'x-forwarded-proto': 'https' },
    proxied,
    true,
  ],
];

describe('checkActionOrigin', () => {
  test.each(rows)('%s', (_name, headers, options, allowed) => {
    const verdict = checkActionOrigin({ headers }, options);
    if (allowed) expect(verdict).toBeNull();
    else expect(verdict).toMatchObject({ status: 403, message: expect.any(String) });
  });

  test('a TLS socket makes the own origin https', () => {
    const headers = { host: 'app.example', origin: 'https://app.example' };
    expect(checkActionOrigin({ headers, socket: { encrypted: true } }, direct)).toBeNull();
    expect(checkActionOrigin({ headers, socket: {} }, direct)).not.toBeNull();
  });

  test('with allowed hosts, a rebound host name is refused though its Origin matches its Host', () => {
    const hosts = { ...direct, allowedHosts: ['app.example', 'localhost'] };
    const rebound = { host: 'rebind.evil.example', origin: 'http://rebind.evil.example' };
    expect(checkActionOrigin({ headers: rebound }, direct)).toBeNull();
    expect(checkActionOrigin({ headers: rebound }, hosts)).toEqual({
      status: 403,
      message: 'this host name is not one the app is served under',
    });
    const own = { host: 'app.example:8080', origin: 'http://app.example:8080' };
    expect(checkActionOrigin({ headers: own }, hosts)).toBeNull();
  });

  test('says why it refused', () => {
    expect(checkActionOrigin({ headers: { host: 'a.example', origin: 'http://b.example' } }, direct)).toEqual(
      {
        status: 403,
        message: 'Origin http://b.example is not allowed',
      },
    );
  });
});

describe('parseOrigin', () => {
  test.each([
    ['https://a.example:443/x?y#z', 'https://a.example'],
    ['HTTP://A.example:80', 'http://a.example'],
    ['http://a.example:8080', 'http://a.example:8080'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['javascript:alert(1)', undefined],
    ['null', undefined],
    ['', undefined],
  ])('%s → %s', (value, origin) => {
    expect(parseOrigin(value)).toBe(origin);
  });
});
