import { expect, test } from 'vitest';
import { createApp } from '../../server/create-app';
import { optionsFromEnv } from '../../server/env-options.js';
import { basicApp } from './fixture-app';

test('nothing set: no proxy trusted, no other origin allowed', () => {
  expect(optionsFromEnv({})).toEqual({
    actionOrigins: { trustProxy: 0, allowedOrigins: [], allowedHosts: [] },
    allowedRedirectOrigins: [],
  });
});

test('each setting is read, origins normalised', () => {
  expect(
    optionsFromEnv({
      SWITCHYARD_TRUST_PROXY: '1',
      SWITCHYARD_ACTION_ORIGINS: 'https://admin.example.com, https://app.example.com/',
      SWITCHYARD_REDIRECT_ORIGINS: 'https://docs.example.com:8443',
      SWITCHYARD_ALLOWED_HOSTS: 'App.example.com, localhost',
      SWITCHYARD_ACTION_RATE_LIMIT: '5/60',
    }),
  ).toEqual({
    actionOrigins: {
      trustProxy: 1,
      allowedOrigins: ['https://admin.example.com', 'https://app.example.com'],
      allowedHosts: ['app.example.com', 'localhost'],
    },
    allowedRedirectOrigins: ['https://docs.example.com:8443'],
    actionRateLimit: { max: 5, windowMs: 60_000 },
  });
  expect(optionsFromEnv({ SWITCHYARD_ACTION_RATE_LIMIT: 'off' }).actionRateLimit).toBe(false);
});

test.each([
  ['', 0],
  ['0', 0],
  ['false', 0],
  ['1', 1],
  ['true', 1],
  [' TRUE ', 1],
  ['2', 2],
  ['12', 12],
])('SWITCHYARD_TRUST_PROXY=%j trusts %i proxies', (value, count) => {
  expect(optionsFromEnv({ SWITCHYARD_TRUST_PROXY: value }).actionOrigins.trustProxy).toBe(count);
});

test.each([
  ['SWITCHYARD_TRUST_PROXY', 'yes'],
  ['SWITCHYARD_TRUST_PROXY', '-1'],
  ['SWITCHYARD_TRUST_PROXY', '1.5'],
  ['SWITCHYARD_TRUST_PROXY', '100'],
  ['SWITCHYARD_TRUST_PROXY', 'loopback'],
  ['SWITCHYARD_ACTION_ORIGINS', '*'],
  ['SWITCHYARD_ACTION_ORIGINS', 'https://*.example.com'],
  ['SWITCHYARD_REDIRECT_ORIGINS', 'https://docs.example.com/guide'],
  ['SWITCHYARD_REDIRECT_ORIGINS', 'javascript:alert(1)'],
  ['SWITCHYARD_REDIRECT_ORIGINS', 'https://user@docs.example.com'],
  ['SWITCHYARD_REDIRECT_ORIGINS', 'docs.example.com'],
  ['SWITCHYARD_ALLOWED_HOSTS', 'https://app.example.com'],
  ['SWITCHYARD_ALLOWED_HOSTS', 'app.example.com:443'],
  ['SWITCHYARD_ALLOWED_HOSTS', '*.example.com'],
  ['SWITCHYARD_ACTION_RATE_LIMIT', '30'],
  ['SWITCHYARD_ACTION_RATE_LIMIT', '0/10'],
  ['SWITCHYARD_ACTION_RATE_LIMIT', '30 per 10s'],
])('%s=%j stops the start with a message naming it', (name, value) => {
  expect(() => optionsFromEnv({ [name]: value })).toThrow(name);
});

test('SWITCHYARD_SECRET: read as given; one too short stops the start without printing it', () => {
  const secret = 'k'.repeat(32);
  expect(optionsFromEnv({ SWITCHYARD_SECRET: secret }).secret).toBe(secret);
  expect(optionsFromEnv({}).secret).toBeUndefined();
  expect(() => optionsFromEnv({ SWITCHYARD_SECRET: 'short-secret' })).toThrow(
    /^SWITCHYARD_SECRET must be at least 32 characters .*got 12$/,
  );
});

test('createApp holds a secret it is given to the same minimum, and never prints it', () => {
  expect(() => createApp({ modules: basicApp, secret: 'short' })).toThrow(
    /^secret must be at least 32 characters .*got 5$/,
  );
  expect(() => createApp({ modules: basicApp, secret: '' })).toThrow(/got 0$/);
  expect(() => createApp({ modules: basicApp, secret: 'k'.repeat(32) })).not.toThrow();
  expect(() => createApp({ modules: basicApp })).not.toThrow();
});
