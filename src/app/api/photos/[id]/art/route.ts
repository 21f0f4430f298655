/**
 * `GET /api/photos/<id>/art`: the photo's generated art as an SVG file, the picture its page
 * names as `og:image`. It is the very component the pages draw inline, rendered once to static
 * markup. The art follows from the photo's seed alone, so it is cached for a day.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { RouteHandler } from 'switchyard-react/server';
import { PhotoArt } from '../../../../../components/photo-art';
import { getPhoto } from '../../../../../lib/photos';

/** Inline in HTML an `<svg>` needs no namespace; as a file of its own it does, and a size. */
const STANDALONE = '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"';

export const GET: RouteHandler<{ id: string }> = (_request, { params }) => {
  const photo = getPhoto(params.id);
  if (!photo) {
    return new Response('There is no photo with this id.', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const svg = renderToStaticMarkup(createElement(PhotoArt, { seed: photo.seed })).replace(
    /^<svg/,
    STANDALONE,
  );
  return new Response(svg, {
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
    },
  });
};
