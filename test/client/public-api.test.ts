/**
 * The public names of the framework. Changing them changes every app: do it on purpose.
 */
import { expect, test } from 'vitest';
import * as client from 'switchyard-react';
import * as server from 'switchyard-react/server';
import * as testing from 'switchyard-react/testing';

test('switchyard exports', () => {
  expect(Object.keys(client).sort()).toEqual([
    'Link',
    'href',
    'notFound',
    'permanentRedirect',
    'redirect',
    'useBlocker',
    'useLinkStatus',
    'useNavigationPending',
    'useParams',
    'usePathname',
    'useRouter',
    'useSearchParams',
  ]);
});

test('switchyard/server exports', () => {
  expect(Object.keys(server).sort()).toEqual([
    'RetryLater',
    'callerAddress',
    'cookies',
    'createApp',
    'headers',
    'revalidatePath',
    'setHeader',
    'setStatus',
  ]);
});

test('switchyard/testing exports', () => {
  expect(Object.keys(testing).sort()).toEqual(['TEST_CLOCK_START', 'createTestApp']);
});

test('the package exports exactly these entries', async () => {
  const { exports } = (await import('../../package.json')).default as { exports: Record<string, unknown> };
  expect(Object.keys(exports)).toEqual(['.', './server', './testing', './package.json']);
});
