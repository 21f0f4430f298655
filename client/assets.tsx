/**
 * Puts the matched route's chunks and styles in the document head: React hoists these into
 * `<head>` as `modulepreload` and blocking stylesheets, so hydration starts with no request
 * waterfall and no flash of unstyled content. Only the server renders it: the browser finds
 * the links in place.
 */
import { preinit, preloadModule } from 'react-dom';

export interface AssetList {
  scripts: readonly string[];
  styles: readonly string[];
}

export function Assets({ scripts, styles }: AssetList) {
  for (const href of styles) preinit(href, { as: 'style', precedence: 'default' });
  for (const href of scripts) preloadModule(href);
  return null;
}
