/**
 * The page's head tags, rendered once, from the root of the tree, on both sides: React hoists
 * `<title>`, `<meta>` and `<link>` into `<head>` wherever they render, and removes them when they
 * unmount. The server made the tags (server/render/page-head.ts); an intercepted route in a slot
 * brings what it changes in them. Each tag keeps its key from page to page, so a soft navigation
 * updates the tags both pages have in place, adds the new page's others and removes the old
 * page's: never one twice.
 */
import { createElement, useCallback, useSyncExternalStore } from 'react';
import type { HeadChange, HeadTag } from '../shared/head.js';
import type { PageState } from '../shared/page-state.js';
import { streamedPlaces } from '../shared/streamed-data.js';

export function HeadTags({ state }: { state: PageState }) {
  // Streamed data renders the head again as it arrives, with the tags it brought.
  const subscribe = useCallback(
    (onChange: () => void) => {
      let current = true;
      const render = () => current && onChange();
      for (const { data } of streamedPlaces(state)) data.then(render, render);
      return () => {
        current = false;
      };
    },
    [state],
  );
  // The server and the browser's hydration render the document's tags: its head went out
  // before any streamed data, so hydration renders it without that data too.
  let tags =
    useSyncExternalStore(
      subscribe,
      () => state.streamedHead ?? state.head,
      () => state.head,
    ) ?? [];
  for (const { slots } of state.segments) {
    for (const slot of Object.values(slots ?? {})) if (slot.head) tags = over(tags, slot.head);
  }
  return tags.map(({ key, tag, attributes, text }) => createElement(tag, { key, ...attributes }, text));
}

/** `changes` laid over `tags`: a tag replaces the one with its key in its place, a key alone removes it. */
function over(tags: readonly HeadTag[], changes: readonly HeadChange[]): HeadTag[] {
  const merged = new Map<string, HeadChange>([...tags, ...changes].map((tag) => [tag.key, tag]));
  return [...merged.values()].filter((tag): tag is HeadTag => tag.tag !== undefined);
}
