/**
 * `GET /api/docs-search`: the docs search index as JSON, every page and section with the start
 * of its prose. The search box fetches it when it first takes focus, so no page load pays for it.
 */
import type { RouteHandler } from 'switchyard-react/server';
import { readDocsSearchIndex } from '../../../lib/docs.server';

export const GET: RouteHandler = async () =>
  Response.json(await readDocsSearchIndex(), {
    // The docs change only with a deploy: a browser may keep the index for a few minutes.
    headers: { 'cache-control': 'public, max-age=300' },
  });
