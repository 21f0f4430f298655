/**
 * The page's head tags, rendered once, from the root of the tree, on both sides: React hoists
 * `<title>`, `<meta>` and `<link>` into `<head>` wherever they render, and removes them when they
 * unmount. Each tag keeps its key from page to page, so a soft navigation updates the tags both
 * pages have in place, adds the new page's others and removes the old page's: never one twice.
 */
import { createElement, useEffect, useMemo, useReducer, useSyncExternalStore } from 'react';
import { readHead, type Head } from '../shared/head.js';
import { headSources, pageHeadTags, type HeadSource } from '../shared/page-head.js';
import type { PageState } from '../shared/page-state.js';
import { streamedPlaces } from '../shared/streamed-data.js';
import type { ModuleMap } from './render-route.js';

const never = () => () => {};

export function HeadTags({ state, modules }: { state: PageState; modules: ModuleMap }) {
  // False on the server and while the browser hydrates: the document's head went out before any
  // streamed data, so hydration renders it without that data too. True from the next render on.
  const hydrated = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  // Streamed data that arrives after hydration renders the head again, with its segment's head.
  const [arrived, onArrival] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    let current = true;
    const render = () => current && onArrival();
    for (const { data } of streamedPlaces(state)) {
      if (data.status === 'pending') data.then(render, render);
    }
    return () => {
      current = false;
    };
  }, [state]);
  const tags = useMemo(() => {
    const sources = headSources(state, hydrated);
    const heads = sources.map((source) => headOf(source, modules));
    return pageHeadTags(state, sources, heads);
    // `arrived` counts streamed data settling inside `state`, which stays the same object.
  }, [state, modules, hydrated, arrived]);
  return tags.map(({ key, tag, attributes, text }) => createElement(tag, { key, ...attributes }, text));
}

/** What a route module's `head` export returns for its segment, checked where the checks run. */
function headOf({ file, data, params }: HeadSource, modules: ModuleMap): Head {
  const head = modules.get(file)?.head;
  if (head === undefined) return {};
  if (typeof head !== 'function') {
    throw new TypeError(
      `${file}: the "head" export must be a function: export function head({ data, params })`,
    );
  }
  const value = (head as (args: { data: unknown; params: unknown }) => unknown)({ data, params });
  // The server checks every head it renders, and development checks the browser's too; a
  // production browser leaves the checks' code out and renders what it got.
  return import.meta.env.SSR || import.meta.env.DEV ? readHead(value, file) : ((value ?? {}) as Head);
}
