import { listTags } from '../../lib/tags';

const INDEX = { tags: [...listTags()] };

export async function load() {
  return INDEX;
}
