/**
 * Calls made together become one: `batched(load)` gives a function of one key, and every key asked
 * for in one synchronous run (as `Promise.all(ids.map(get))` asks) is loaded by a single call of
 * `load`, made once that run is over. Each caller gets its own key's value; a failed `load` fails
 * every caller of its batch. Nothing is cached: the next batch loads afresh. (DataLoader's idea,
 * without its cache.)
 */
export function batched<K, V>(
  load: (keys: K[]) => Promise<ReadonlyMap<K, V>>,
): (key: K) => Promise<V | undefined> {
  let gathering: { keys: Set<K>; values: Promise<ReadonlyMap<K, V>> } | undefined;
  return (key) => {
    if (!gathering) {
      const keys = new Set<K>();
      // A microtask: it runs after the synchronous code that is asking, before anything else.
      const values = Promise.resolve().then(() => {
        gathering = undefined;
        return load([...keys]);
      });
      gathering = { keys, values };
    }
    gathering.keys.add(key);
    return gathering.values.then((values) => values.get(key));
  };
}
