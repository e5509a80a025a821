/**
 * Lookups asked for within a moment of each other, answered by one call: twenty
 * resources of one stack each looking for their own creation token cost one filtered listing,
 * not twenty. A failed call fails every lookup it was answering, as a failed single call would.
 */

/**
 * Lookups started this close together share one call: a stack's resources reach the provider
 * over a few hundred milliseconds (over seconds on a busy machine: ten stacks at once, 200 ms
 * cost 4.5 listings a stack, 500 ms and one call in flight 2), and a create has a whole order
 * ahead of it.
 */
const GATHER_MS = 500;

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
  /** The call of the latest batch: the next is sent only once it has answered. */
  let previous: Promise<unknown> = Promise.resolve();
  return async (key) => {
    if (!pending) {
      const keys = new Set<K>();
      // While a call is on its way (queued behind the rate limit, say), lookups keep joining the
      // next batch instead of each window sending its own: one call in flight at a time.
      const gathering = new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS));
      const batch = {
        keys,
        answer: Promise.all([gathering, previous]).then(() => {
          if (pending === batch) pending = undefined;
          return fetchAll([...keys]);
        }),
      };
      previous = batch.answer.catch(() => undefined);
      pending = batch;
    }
    const batch = pending;
    batch.keys.add(key);
    // A full batch takes no more keys: the next lookup starts another.
    if (batch.keys.size >= MAX_KEYS) pending = undefined;
    return (await batch.answer).get(key) ?? missing();
  };
}
