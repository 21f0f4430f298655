import { expect, test } from 'vitest';
import { isRouterClick, type ClickLike } from '../../client/link-click';

const plain: ClickLike = {
  button: 0,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
};
const here = 'https://app.example/feed';

test.each([
  ['a plain click on a same-origin link', plain, { href: '/photos/1' }, true],
  ['target=_self', plain, { href: '/photos/1', target: '_self' }, true],
  ['cmd-click (new tab)', { ...plain, metaKey: true }, { href: '/photos/1' }, false],
  ['ctrl-click (new tab)', { ...plain, ctrlKey: true }, { href: '/photos/1' }, false],
  ['shift-click (new window)', { ...plain, shiftKey: true }, { href: '/photos/1' }, false],
  ['alt-click (download)', { ...plain, altKey: true }, { href: '/photos/1' }, false],
  ['middle click', { ...plain, button: 1 }, { href: '/photos/1' }, false],
  ['already handled', { ...plain, defaultPrevented: true }, { href: '/photos/1' }, false],
  ['target=_blank', plain, { href: '/photos/1', target: '_blank' }, false],
  ['download', plain, { href: '/photos/1', download: '' }, false],
  ['another origin', plain, { href: 'https://elsewhere.example/' }, false],
  ['protocol-relative to another host', plain, { href: '//elsewhere.example/' }, false],
  ['mailto:', plain, { href: 'mailto:a@b.example' }, false],
  ['javascript:', plain, { href: 'javascript:void 0' }, false],
])('%s → %s', (_name, event, anchor, expected) => {
  expect(isRouterClick(event, anchor, here)).toBe(expected);
});
