import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useRouter, type Href } from 'switchyard-react';
import { searchDocs } from '../lib/docs-search';
import type { DocsSearchEntry } from '../lib/types';

/** Where the index is served; fetched on the box's first focus, never with the page. */
export const DOCS_SEARCH_URL = '/api/docs-search';

type IndexState = { status: 'idle' | 'loading' | 'failed' } | { status: 'ready'; entries: DocsSearchEntry[] };

/**
 * The docs search box, a combobox (WAI-ARIA's "list autocomplete" pattern): focus stays in the
 * input while the arrows move `aria-activedescendant` through the results; Enter opens the
 * active one (or the first) with a soft navigation, Escape closes the list (and a second Escape
 * clears the box).
 * `/` anywhere on the page but in another field focuses it.
 */
export function DocsSearch() {
  const router = useRouter();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [index, setIndex] = useState<IndexState>({ status: 'idle' });
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  // No option is active until an arrow moves to one; Enter then opens the first result.
  const [active, setActive] = useState(-1);
  const [hydrated, setHydrated] = useState(false);

  useEffect(() => {
    setHydrated(true);
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target))
        return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const load = () => {
    if (index.status === 'loading' || index.status === 'ready') return;
    setIndex({ status: 'loading' });
    fetch(DOCS_SEARCH_URL)
      .then((res) => (res.ok ? (res.json() as Promise<DocsSearchEntry[]>) : Promise.reject(new Error())))
      .then(
        (entries) => setIndex({ status: 'ready', entries }),
        // Focusing the box again tries again.
        () => setIndex({ status: 'failed' }),
      );
  };

  const results = index.status === 'ready' ? searchDocs(index.entries, query) : [];
  const expanded = open && results.length > 0;
  const optionId = (i: number) => `${id}-option-${i}`;

  // The active option stays in sight when the list scrolls.
  useEffect(() => {
    if (active >= 0) document.getElementById(`${id}-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [id, active]);

  const go = (entry: DocsSearchEntry) => {
    setOpen(false);
    setQuery('');
    input.current?.blur();
    // Index entries are pages of this app, possibly with a heading's #id.
    void router.push(entry.href as Href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const count = results.length;
      if (!expanded) setOpen(true);
      else setActive((i) => (event.key === 'ArrowDown' ? (i + 1) % count : i <= 0 ? count - 1 : i - 1));
    } else if (event.key === 'Enter') {
      const entry = expanded ? results[Math.max(active, 0)] : undefined;
      if (entry) {
        event.preventDefault();
        go(entry);
      }
    } else if (event.key === 'Escape') {
      if (expanded) setOpen(false);
      else setQuery('');
      setActive(-1);
    }
  };

  const message =
    index.status === 'failed'
      ? 'Search is unavailable right now.'
      : open && query.trim() && index.status === 'ready' && results.length === 0
        ? `No page mentions “${query.trim()}”.`
        : '';

  return (
    <search className="docs-search">
      <label htmlFor={`${id}-input`} className="visually-hidden">
        Search the docs
      </label>
      <input
        ref={input}
        id={`${id}-input`}
        type="search"
        role="combobox"
        placeholder="Search the docs  /"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={`${id}-results`}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-keyshortcuts="/"
        disabled={!hydrated}
        value={query}
        onFocus={() => {
          load();
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
      />
      <ul
        id={`${id}-results`}
        role="listbox"
        aria-label="Search results"
        className="docs-search-results"
        hidden={!expanded}
      >
        {results.map((entry, i) => (
          <li
            key={entry.href}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Keeps the focus in the box, so the click below still finds the list open.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => go(entry)}
          >
            <span className="docs-search-title">{entry.heading ?? entry.page}</span>
            {entry.heading ? <span className="docs-search-page">{entry.page}</span> : null}
            <span className="docs-search-text">{entry.text}</span>
          </li>
        ))}
      </ul>
      <p role="status" className="docs-search-status">
        {message}
      </p>
    </search>
  );
}

/** Whether a key press is typing into a field, where `/` is a character, not a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
