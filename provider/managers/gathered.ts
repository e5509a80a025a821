/**
 * Lookups asked for within a few milliseconds of each other, answered by one call: twenty
 * resources of one stack each looking for their own creation token cost one filtered listing,
 * not twenty. A failed call fails every lookup it was answering, as a failed single call would.
 */

/**
 * Lookups started this close together share one call: a stack's resources reach the provider
 * over a few hundred milliseconds, and a create has a whole order ahead of it.
 */
const GATHER_MS = 200;

/**
 * At most this many keys a call: a listing of a few dozen creation tokens fits in one page, so
 * the answer never depends on how the server pages a longer one.
 */
const MAX_KEYS = 40;

export function gathered<K, V>(
  fetchAll: (keys: K[]) => Promise<Map<K, V>>,
  missing: () => V,
): (key: K) => Promise<V> {
  let pending: { keys: Set<K>; answer: Promise<Map<K, V>> } | undefined;
  return async (key) => {
    if (!pending) {
      const keys = new Set<K>();
      const batch = {
        keys,
        answer: new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS)).then(() => {
          if (pending === batch) pending = undefined;
          return fetchAll([...keys]);
        }),
      };
      pending = batch;
    }
    const batch = pending;
    batch.keys.add(key);
    // A full batch takes no more keys: the next lookup starts another.
    if (batch.keys.size >= MAX_KEYS) pending = undefined;
    return (await batch.answer).get(key) ?? missing();
  };
}
