import { listTags } from '../../lib/tags';
import type { TagIndexData } from '../../lib/types';

const INDEX: TagIndexData = { tags: [...listTags()] };

export async function load(): Promise<TagIndexData> {
  return INDEX;
}
