/**
 * What browser spans may keep, and where trace headers may go: URLs become route patterns (a
 * built file keeps its path, another origin only its origin), a request span is named by its
 * route, nothing keeps a query, an address or a user agent; headers go to this origin's paths only.
 */
import { matchesTracePropagationTargets } from '@sentry/core';
import { describe, expect, test } from 'vitest';
import {
  routePatterns,
  scrubBrowserSpan,
  TRACE_PROPAGATION_TARGETS,
  urlForSpan,
} from '../../client/sentry-tracing';

const ORIGIN = 'https://app.example';
const patternOf = routePatterns([
  'layout.tsx',
  '(feed)/page.tsx',
  '(feed)/@modal/(.)photos/[id]/page.tsx',
  '(feed)/@modal/default.tsx',
  'photos/[id]/page.tsx',
  'u/[handle]/page.tsx',
]);

describe('a URL in a span', () => {
  test.each([
    ['/photos/3?token=secret#top', '/photos/[id]'],
    [`${ORIGIN}/u/ada?tab=likes`, '/u/[handle]'],
    ['/', '/'],
    ['/assets/entry-abc123.js?v=1', '/assets/entry-abc123.js'],
    ['https://cdn.example/u/ada?key=secret', 'https://cdn.example'],
  ])('%s is kept as %s', (url, kept) => {
    expect(urlForSpan(url, ORIGIN, patternOf)).toBe(kept);
  });
});

describe('scrubBrowserSpan', () => {
  const scrub = scrubBrowserSpan(ORIGIN, patternOf);

  test('a page-data request span: named by its route, its URLs patterns, no query kept', () => {
    const span = scrub({
      name: 'GET app.example',
      attributes: {
        'sentry.op': 'http.client',
        'http.request.method': 'GET',
        url: '/photos/3?_sy=%2F',
        'http.url': `${ORIGIN}/photos/3?_sy=%2F`,
        'url.full': `${ORIGIN}/photos/3?_sy=%2F`,
        'http.query': '?_sy=%2F',
        'url.query': '_sy=%2F',
        'http.fragment': '#x',
        'client.address': '203.0.113.9',
        'user_agent.original': 'Chrome',
        'http.response.status_code': 200,
      },
    });
    expect(span).toEqual({
      name: 'GET /photos/[id]',
      attributes: {
        'sentry.op': 'http.client',
        'http.request.method': 'GET',
        url: '/photos/[id]',
        'http.url': '/photos/[id]',
        'url.full': '/photos/[id]',
        'http.response.status_code': 200,
      },
    });
  });

  test('a navigation or phase span keeps its name; only a request span is renamed', () => {
    const navigation = { name: '/photos/[id]', attributes: { 'sentry.op': 'navigation' } };
    expect(scrub(navigation)).toEqual(navigation);
    const phase = { name: 'page data', attributes: { 'sentry.op': 'navigation.request', url: '/u/ada' } };
    expect(scrub(phase).name).toBe('page data');
    // A request span without a URL keeps the SDK's name (a host).
    expect(scrub({ name: 'GET app.example', attributes: { 'sentry.op': 'http.client' } }).name).toBe(
      'GET app.example',
    );
  });
});

describe('trace headers', () => {
  // Sentry's browser SDK tests the absolute URL, then a same-origin URL's path; never another's.
  test('an absolute URL never matches, whatever its origin; a path on this origin does', () => {
    for (const url of [`${ORIGIN}/photos/3`, 'https://evil.example/', 'http://127.0.0.1:9/x'])
      expect(matchesTracePropagationTargets(url, TRACE_PROPAGATION_TARGETS)).toBe(false);
    for (const path of ['/photos/3', '/_switchyard/action/abc'])
      expect(matchesTracePropagationTargets(path, TRACE_PROPAGATION_TARGETS)).toBe(true);
    expect(matchesTracePropagationTargets('//evil.example/x', TRACE_PROPAGATION_TARGETS)).toBe(false);
  });
});
