/**
 * A list result: a plain array with a non-enumerable `totalCount`, the number of matching
 * objects the server reported in the `Svc-Total-Items` header (`undefined` when it sent none).
 * Non-enumerable so the array still deep-equals, spreads and serializes as a plain array.
 */
export type ListResult<T> = T[] & { readonly totalCount: number | undefined };

export function withTotalCount<T>(items: T[], totalCount: number | undefined): ListResult<T> {
  Object.defineProperty(items, 'totalCount', { value: totalCount, enumerable: false });
  return items as ListResult<T>;
}

export function isListResult(value: unknown): value is ListResult<unknown> {
  return Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, 'totalCount');
}
