/**
 * `GET /api/photos/<id>`: a photo as JSON, with its like count as the store has it now. An
 * unknown id is a 404 whose body says so in JSON too, so a client reads every answer the same way.
 */
import type { RouteHandler } from 'switchyard-react/server';
import { store } from '../../../../lib/db.server';
import { getPhoto } from '../../../../lib/photos';

export const GET: RouteHandler<{ id: string }> = async (_request, { params }) => {
  const photo = getPhoto(params.id);
  if (!photo) return Response.json({ error: 'There is no photo with this id.' }, { status: 404 });
  const likes = (await (await store()).likesOf(photo.id)) ?? photo.likes;
  const { id, title, author, tags, views, createdAt } = photo;
  return Response.json(
    { id, title, author, tags, likes, views, createdAt, page: `/photos/${id}`, art: `/api/photos/${id}/art` },
    // Likes change with every click: never answered from a cache.
    { headers: { 'cache-control': 'no-store' } },
  );
};
