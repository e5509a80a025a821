import type { Client } from '../provider/client';
import { SvcAPIError } from '../provider/client/errors';

/**
 * The API answers `Internal Error` for a page too large for its backend (many guests with a
 * rich mask): the same call with a smaller page succeeds. Nothing else is taken for that.
 */
const pageTooLarge = (err: unknown) =>
  err instanceof SvcAPIError && /^internal error\.?$/i.test(err.faultString.trim());

export interface PageOptions {
  mask: string;
  /** The first page size (default 1,000); halved on each `Internal Error`, never grown again. */
  pageSize?: number;
}

/**
 * Every item of a list method (`Account.getVirtualGuests`), page by page, so memory holds one
 * page of the answer at a time; a page the API finds too large is asked for again at half the
 * size (down to one item, then the error is raised). The list ends at a short page.
 */
export async function* shrinkingPages<T>(
  client: Client,
  service: string,
  method: string,
  options: PageOptions,
): AsyncGenerator<T[]> {
  let size = options.pageSize ?? 1000;
  for (let offset = 0; ;) {
    let page: T[];
    try {
      page = (await client.call(service, method, {
        mask: options.mask,
        limit: size,
        offset,
      })) as T[];
    } catch (err) {
      if (!pageTooLarge(err) || size === 1) throw err;
      size = Math.ceil(size / 2);
      continue;
    }
    if (page.length > 0) yield page;
    if (page.length < size) return;
    offset += page.length;
  }
}
