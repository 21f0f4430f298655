import { permanentRedirect, type LoadArgs } from 'switchyard-react';

/** `/p/<id>`, the short link of a photo: a 308 to `/photos/<id>`. */
export function load({ params }: LoadArgs<'/p/[id]'>): never {
  permanentRedirect(`/photos/${encodeURIComponent(params.id)}`);
}
