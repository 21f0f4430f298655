/**
 * The browser renders the head tags it is given: the page's, with what an intercepted route in
 * a slot changes laid over them (a tag replaced in its place, one added, one removed). Rendered on
 * the server's renderer, which renders as hydration does: without the tags streamed data brought.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { HeadTags } from '../../client/head-tags';
import type { HeadTag } from '../../shared/head';
import type { PageState } from '../../shared/page-state';

const title = (text: string): HeadTag => ({ key: 'title', tag: 'title', attributes: {}, text });
const meta = (name: string, content: string): HeadTag => ({
  key: `name:${name}`,
  tag: 'meta',
  attributes: { name, content },
});

function feed(over: Partial<PageState> = {}): PageState {
  return {
    buildId: 'b',
    url: '/',
    pattern: '/',
    params: {},
    searchParams: {},
    segments: [{ dir: '', files: {} }],
    head: [title('Feed'), meta('description', 'All photos'), meta('theme-color', '#fff')],
    ...over,
  };
}

test('the page’s tags, once each; without streamed data’s tags while it hydrates', () => {
  const html = renderToStaticMarkup(<HeadTags state={feed({ streamedHead: [title('Later')] })} />);
  expect(html).toBe(
    '<title>Feed</title><meta name="description" content="All photos"/><meta name="theme-color" content="#fff"/>',
  );
});

test('an intercepted route’s changes over the page’s: replaced in place, added, removed', () => {
  const state = feed({
    url: '/photos/3',
    mainUrl: '/',
    segments: [
      {
        dir: '',
        files: {},
        slots: {
          modal: {
            segments: [{ dir: '@modal/(.)photos/[id]', files: {} }],
            params: { id: '3' },
            shows: 'page',
            intercepted: true,
            head: [meta('robots', 'noindex'), { key: 'name:description' }, title('Photo 3')],
          },
        },
      },
    ],
  });
  expect(renderToStaticMarkup(<HeadTags state={state} />)).toBe(
    '<title>Photo 3</title><meta name="theme-color" content="#fff"/><meta name="robots" content="noindex"/>',
  );
});

test('a state without tags renders none', () => {
  const { head: _head, ...bare } = feed();
  expect(renderToStaticMarkup(<HeadTags state={bare} />)).toBe('');
});
