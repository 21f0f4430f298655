/**
 * A node of the route tree: one folder of the app directory, with its segment, its router files
 * by role and its children. The contract both the tree builder (route-tree.ts) and the rules it
 * is checked against (validate-route-tree.ts) read.
 */
import type { Segment } from './segment.js';

/** Files with a meaning to the router; anything else in the app directory is left alone. */
export const COMPONENT_FILES = ['layout', 'page', 'loading', 'not-found', 'error', 'default'] as const;
/** Server-only files: loaders, and the app's `middleware` (at the root of the app directory only). */
export const SERVER_FILES = ['layout.server', 'page.server', 'middleware'] as const;
/** A route handler (`route.ts`): answers its URL for any method instead of a page, server only. */
export const HANDLER_FILE = 'route';
export type ComponentFile = (typeof COMPONENT_FILES)[number];
export type ServerFile = (typeof SERVER_FILES)[number];
export type RouteFile = ComponentFile | ServerFile | typeof HANDLER_FILE;

export interface RouteNode {
  /** Folder name as written; `''` for the root. */
  name: string;
  /** `null` only for the root. */
  segment: Segment | null;
  /** The router files of this folder by role, as paths relative to the app directory. */
  files: Partial<Record<RouteFile, string>>;
  children: RouteNode[];
}
