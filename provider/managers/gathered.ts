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

export function gathered<K, V>(
  fetchAll: (keys: K[]) => Promise<Map<K, V>>,
  missing: () => V,
): (key: K) => Promise<V> {
  let pending: { keys: Set<K>; answer: Promise<Map<K, V>> } | undefined;
  return async (key) => {
    if (!pending) {
      const keys = new Set<K>();
      const answer = new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS)).then(() => {
        pending = undefined;
        return fetchAll([...keys]);
      });
      pending = { keys, answer };
    }
    pending.keys.add(key);
    return (await pending.answer).get(key) ?? missing();
  };
}
