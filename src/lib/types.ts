/**
 * The demo's data shapes, shared by the `.server.ts` loaders that build them and the components
 * that render them. Everything here is plain JSON: dates are ISO strings.
 */
import type { Href } from 'switchyard-react';
import type { Comment } from './comments';

export interface User {
  handle: string;
  name: string;
  bio: string;
  /** Hue (0–359) of the avatar. */
  hue: number;
}

export interface Photo {
  id: string;
  title: string;
  /** The author's handle. */
  author: string;
  /** Tag paths such as `nature/trees`; a photo tagged `nature/trees` is also under `nature`. */
  tags: string[];
  likes: number;
  views: number;
  /** Seed of the generated artwork. */
  seed: number;
  /** ISO 8601, UTC. */
  createdAt: string;
}

/** What a grid card needs: the feed sends 36 of these, so nothing more. */
export type PhotoCard = Pick<Photo, 'id' | 'title' | 'author' | 'seed' | 'likes'>;

export interface TagSummary {
  path: string;
  /** Photos tagged with this path or a path below it. */
  count: number;
}

export interface PhotoPageData {
  photo: Photo;
  author: User;
  /** One page of them, oldest first, from the store. */
  comments: Comment[];
  commentCount: number;
  /** `?before=` for the next older page, or null when these are the oldest. */
  olderBefore: number | null;
  /** Whether this is an older page (`?before=` was given), which links back to the newest. */
  olderPage: boolean;
  /** A few other photos by the same author. */
  more: PhotoCard[];
  /** Whether the signed-in user likes the photo; null when nobody is signed in. */
  liked: boolean | null;
  /** The signed-in user's handle, who comments as themselves; null when nobody is signed in. */
  signedInAs: string | null;
}

export interface DocsNavItem {
  href: Href;
  title: string;
}

/** A heading of a docs page below its title: `h2` to `h4`, with the `id` a link can point at. */
export interface DocsHeading {
  id: string;
  text: string;
  depth: 2 | 3 | 4;
}

export interface DocsPageData {
  title: string;
  /** Rendered from trusted markdown in the repo's `docs/` folder, code already highlighted. */
  html: string;
  /** What the on-page contents list shows: empty on a short page. */
  contents: DocsHeading[];
  nav: DocsNavItem[];
}

/**
 * One hit of the docs search: a page (no `heading`) or one of its sections, whose `href` ends
 * in the heading's `#id`. `text` is the start of its prose, what the result shows and matches.
 */
export interface DocsSearchEntry {
  href: string;
  page: string;
  heading?: string;
  text: string;
}

/** The root layout's data: who is signed in, for the header. */
export interface SiteData {
  user: Pick<User, 'handle' | 'name'> | null;
}
