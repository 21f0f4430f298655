import { expect, test } from 'vitest';
import type { Head } from '../../shared/head';
import { headTags, readHead } from '../../server/render/head-tags';

test('a deeper head replaces a shallower one key by key, in its place, and keeps what it does not set', () => {
  const root: Head = {
    title: 'Site',
    description: 'A site.',
    robots: 'index, follow',
    openGraph: { type: 'website', title: 'Site' },
    meta: [
      { name: 'theme-color', content: '#fff' },
      { property: 'article:author', content: 'Ann' },
    ],
  };
  const leaf: Head = {
    title: 'Photo · Site',
    canonical: '/photos/1',
    openGraph: { title: 'Photo', image: '/art/1' },
    meta: [
      { name: 'viewport', content: 'width=device-width' },
      { name: 'theme-color', content: '#000' },
    ],
  };
  expect(headTags([root, {}, leaf])).toEqual([
    { key: 'title', tag: 'title', attributes: {}, text: 'Photo · Site' },
    { key: 'name:description', tag: 'meta', attributes: { name: 'description', content: 'A site.' } },
    { key: 'canonical', tag: 'link', attributes: { rel: 'canonical', href: '/photos/1' } },
    { key: 'name:robots', tag: 'meta', attributes: { name: 'robots', content: 'index, follow' } },
    { key: 'property:og:title', tag: 'meta', attributes: { property: 'og:title', content: 'Photo' } },
    { key: 'property:og:image', tag: 'meta', attributes: { property: 'og:image', content: '/art/1' } },
    { key: 'property:og:type', tag: 'meta', attributes: { property: 'og:type', content: 'website' } },
    { key: 'name:theme-color', tag: 'meta', attributes: { name: 'theme-color', content: '#000' } },
    {
      key: 'property:article:author',
      tag: 'meta',
      attributes: { property: 'article:author', content: 'Ann' },
    },
    { key: 'name:viewport', tag: 'meta', attributes: { name: 'viewport', content: 'width=device-width' } },
  ]);
});

/** What each tag says, by its key. */
const written = (heads: Head[]) =>
  Object.fromEntries(headTags(heads).map((tag) => [tag.key, tag.text ?? tag.attributes.content]));

test('an undefined value does not unset what a shallower head set; an empty one does', () => {
  const deeper = { title: undefined, openGraph: { image: undefined } } as unknown as Head;
  expect(written([{ title: 'Site', openGraph: { image: '/a' } }, deeper])).toEqual({
    title: 'Site',
    'property:og:image': '/a',
  });
  const emptied: Head = { title: '', canonical: '', meta: [{ name: 'theme-color', content: '' }] };
  const root: Head = { title: 'Site', canonical: '/', meta: [{ name: 'theme-color', content: '#fff' }] };
  expect(headTags([root, emptied])).toEqual([]);
});

test('a meta entry named like a field is that field: written once, the deeper one winning', () => {
  const tags = headTags([
    { description: 'root', openGraph: { title: 'root' } },
    {
      meta: [
        { name: 'description', content: 'leaf' },
        { property: 'og:title', content: 'leaf' },
        { name: 'robots', content: 'noindex' },
      ],
    },
  ]);
  expect(tags.map((t) => t.key)).toEqual(['name:description', 'name:robots', 'property:og:title']);
  expect(written([{ description: 'root' }, { meta: [{ name: 'description', content: 'leaf' }] }])).toEqual({
    'name:description': 'leaf',
  });
  // Within one head, `meta` comes after the fields.
  expect(written([{ description: 'field', meta: [{ name: 'description', content: 'meta' }] }])).toEqual({
    'name:description': 'meta',
  });
});

test('a head is written as one tag per key, in a fixed order; empty values write none', () => {
  const tags = headTags([
    {
      title: 'T',
      description: 'D',
      canonical: 'https://example.com/p',
      robots: '',
      openGraph: { type: 'article', image: '/i', title: '' },
      meta: [{ property: 'article:tag', content: 'x' }],
    },
  ]);
  expect(tags).toEqual([
    { key: 'title', tag: 'title', attributes: {}, text: 'T' },
    { key: 'name:description', tag: 'meta', attributes: { name: 'description', content: 'D' } },
    { key: 'canonical', tag: 'link', attributes: { rel: 'canonical', href: 'https://example.com/p' } },
    { key: 'property:og:image', tag: 'meta', attributes: { property: 'og:image', content: '/i' } },
    { key: 'property:og:type', tag: 'meta', attributes: { property: 'og:type', content: 'article' } },
    { key: 'property:article:tag', tag: 'meta', attributes: { property: 'article:tag', content: 'x' } },
  ]);
  expect(headTags([{}])).toEqual([]);
  expect(headTags([])).toEqual([]);
});

test('readHead passes a well-formed head and nothing through', () => {
  const head = { title: 'T', openGraph: { type: 'website' }, meta: [{ name: 'a', content: 'b' }] };
  expect(readHead(head, 'page.tsx')).toBe(head);
  expect(readHead(undefined, 'page.tsx')).toEqual({});
  expect(readHead(null, 'page.tsx')).toEqual({});
});

test.each([
  ['a string', 'Title', 'must return an object'],
  ['an array', [], 'must return an object'],
  ['a promise', Promise.resolve({}), 'returned a promise'],
  ['a number title', { title: 3 }, 'title must be a string'],
  ['an unknown key', { keywords: 'a' }, 'unknown key "keywords"'],
  ['openGraph not an object', { openGraph: 'x' }, 'openGraph must be an object'],
  ['an unknown openGraph key', { openGraph: { url: '/' } }, 'unknown key "openGraph.url"'],
  ['a non-string openGraph field', { openGraph: { image: {} } }, 'openGraph.image must be a string'],
  ['meta not an array', { meta: { name: 'a', content: 'b' } }, 'meta must be an array'],
  ['meta with both names', { meta: [{ name: 'a', property: 'b', content: 'c' }] }, 'meta must be'],
  ['meta with neither name', { meta: [{ content: 'c' }] }, 'meta must be'],
  ['meta with an empty name', { meta: [{ name: '', content: 'c' }] }, 'meta must be'],
  ['meta without content', { meta: [{ name: 'a' }] }, 'meta must be'],
  ['meta with another attribute', { meta: [{ name: 'a', content: 'b', onload: 'x' }] }, 'meta must be'],
  ['a null meta entry', { meta: [null] }, 'meta must be'],
])('readHead refuses %s, naming the file', (_, value, message) => {
  expect(() => readHead(value, 'photos/[id]/page.tsx')).toThrow(
    expect.objectContaining({
      name: 'TypeError',
      message: expect.stringContaining('photos/[id]/page.tsx: head()'),
    }),
  );
  expect(() => readHead(value, 'photos/[id]/page.tsx')).toThrow(message);
});
