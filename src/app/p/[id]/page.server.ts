import { permanentRedirect, type LoadArgs } from 'switchyard';

/** `/p/<id>`, the short link of a photo: a 308 to `/photos/<id>`. */
export function load({ params }: LoadArgs<{ id: string }>): never {
  permanentRedirect(`/photos/${encodeURIComponent(params.id)}`);
}
