/**
 * The least-recently-used order both bounded maps of the router keep (the prefetch cache's
 * entries, the pages held for back and forward): a `Map`'s insertion order is its age order, so
 * making a key the newest is a delete and a set, and the oldest is the first key.
 */

/** Sets `key` as the newest; past `limit` entries, the oldest go. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, limit = Infinity): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > limit) map.delete(map.keys().next().value!);
}
