import { isListResult } from './result';

/**
 * Paging for `iterCall` (the reference client's pre-5.5.3 `iter_call`): `chunk` is the page
 * size, `limit` the most results in total, `offset` where to start. Pages are fetched one at a
 * time as the consumer pulls; only the current page is held. The next page starts where the
 * items received end (a server may send fewer than asked for: it caps its page size).
 *
 * When to stop: at `limit`; at an empty page; at a page longer than asked for (the server
 * ignored resultLimit and sent everything). With the total from the `Svc-Total-Items` header,
 * when that many items have been read, and not before: a short page then only means the server
 * caps its pages. Without the header, a short page is the only sign of the end.
 * A result that is not a list is yielded once.
 */

export const DEFAULT_CHUNK = 100;

export interface PagingOptions {
  chunk?: number;
  limit?: number;
  offset?: number;
}

export type FetchPage = (limit: number, offset: number) => Promise<unknown>;

export function pageThrough<T>(
  fetchPage: FetchPage,
  options: PagingOptions = {},
): AsyncIterableIterator<T> {
  const { chunk = DEFAULT_CHUNK, limit, offset = 0 } = options;
  if (!Number.isSafeInteger(chunk) || chunk <= 0) {
    throw new RangeError(`chunk must be an integer greater than zero, got ${String(chunk)}`);
  }
  return pages<T>(fetchPage, chunk, limit, offset);
}

async function* pages<T>(
  fetchPage: FetchPage,
  chunk: number,
  limit: number | undefined,
  offset: number,
): AsyncIterableIterator<T> {
  let yielded = 0;
  for (;;) {
    const size = limit === undefined ? chunk : Math.min(chunk, limit - yielded);
    if (size <= 0) return;
    const page = await fetchPage(size, offset);
    if (!Array.isArray(page)) {
      if (page !== null && page !== undefined) yield page as T;
      return;
    }
    if (page.length === 0) return;
    const take = limit === undefined ? page.length : Math.min(page.length, limit - yielded);
    for (let i = 0; i < take; i++) yield page[i] as T;
    yielded += take;
    offset += page.length;
    if (page.length > size) return;
    const total = isListResult(page) ? page.totalCount : undefined;
    if (total === undefined ? page.length < size : offset >= total) return;
  }
}
