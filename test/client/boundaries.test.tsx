/**
 * The boundaries' own rules, without a DOM: what they catch, what they let through, and that
 * a new pathname clears what they caught. Rendering is checked in Chromium.
 */
import { expect, test, vi } from 'vitest';
import { prerender } from 'react-dom/static';
import { AppErrorBoundary, SegmentErrorBoundary, SignalBoundary } from '../../client/error-boundary';
import { SERVER_ERROR_MESSAGE, serverError } from '../../shared/error-messages';
import { CLIENT_ERROR_MESSAGE, FALLBACK_CSS } from '../../shared/fallback-page';
import { notFound, redirect } from '../../shared/router-signals';

function thrown(fn: () => never): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
}

test('an error boundary catches errors and lets router signals through', () => {
  const error = new Error('boom');
  expect(SegmentErrorBoundary.getDerivedStateFromError(error)).toEqual({ caught: error });
  const signal = thrown(notFound);
  expect(() => SegmentErrorBoundary.getDerivedStateFromError(signal)).toThrow(signal as Error);
  expect(() => AppErrorBoundary.getDerivedStateFromError(thrown(() => redirect('/a')))).toThrow();
});

test('a signal boundary catches signals and lets errors through', () => {
  const signal = thrown(notFound);
  expect(SignalBoundary.getDerivedStateFromError(signal)).toEqual({ caught: signal });
  expect(() => SignalBoundary.getDerivedStateFromError(new Error('boom'))).toThrow('boom');
});

test.each([
  ['error', SegmentErrorBoundary, new Error('boom')],
  ['signal', SignalBoundary, thrown(notFound)],
] as const)(
  'the %s boundary clears what it caught when the pathname changes, not before',
  (_, Boundary, caught) => {
    const state = { caught, resetKey: '/lab/a' } as never;
    expect(Boundary.getDerivedStateFromProps({ resetKey: '/lab/a', children: null }, state)).toBeNull();
    expect(Boundary.getDerivedStateFromProps({ resetKey: '/lab/b', children: null }, state)).toEqual({
      resetKey: '/lab/b',
      caught: null,
    });
  },
);

/** What the last boundary shows once it caught `caught`, its page's chunk loaded. */
async function renderCaught(Boundary: typeof AppErrorBoundary, caught: unknown): Promise<string> {
  const boundary = new Boundary({ children: null });
  boundary.state = { caught };
  const { prelude } = await prerender(<>{boundary.render()}</>);
  return new Response(prelude).text();
}

test('the last boundary shows the exact fallback text: client-side, or server-side with the digest', async () => {
  const render = (caught: unknown) => renderCaught(AppErrorBoundary, caught);
  const client = await render(new Error('secret detail'));
  expect(client).toContain(`<h1>${CLIENT_ERROR_MESSAGE}</h1>`);
  expect(client).not.toContain('secret detail');
  expect(client).not.toContain('Digest');
  const server = await render(serverError('0123abcd45'));
  expect(server).toContain(SERVER_ERROR_MESSAGE);
  expect(server).toContain('<p>Digest: <code>0123abcd45</code></p>');
  // Like the server's error pages: a language, a title and a way home.
  for (const page of [client, server]) {
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<title>Application error</title>');
    expect(page).toContain('<a href="/">Go to the home page</a>');
    // The site's font and colours, inline, and nothing to load: no stylesheet, font or image.
    expect(page).toContain(`<style>${FALLBACK_CSS}</style>`);
    expect(page).not.toMatch(/<link|<img|<script|url\(|@import/);
  }
});

test('the last boundary still shows a page when its page cannot load', async () => {
  vi.resetModules();
  vi.doMock('../../client/app-error-page', () => {
    throw new Error('the chunk did not load');
  });
  try {
    const { AppErrorBoundary: Boundary } = await import('../../client/error-boundary');
    const page = await renderCaught(Boundary, new Error('boom'));
    expect(page).toContain('<html lang="en">');
    expect(page).toMatch(/<body>.*Application error.*<\/body>/);
  } finally {
    vi.doUnmock('../../client/app-error-page');
    vi.resetModules();
  }
});
